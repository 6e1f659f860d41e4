import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import type { LogSummary } from '../../api/client.ts';
import { DeliveryRow } from './delivery-row.tsx';

const log = (eventType: string | null): LogSummary =>
  ({
    id: 'log_1',
    endpointId: 'ep_1',
    method: 'POST',
    path: '/hooks',
    query: {},
    size: 1234,
    receivedAt: '2025-03-01T12:00:00.000Z',
    status: 'success',
    verification: { scheme: 'stripe', result: 'valid', reason: null, detail: null, matchedSecret: null },
    pinned: false,
    eventType,
  }) as LogSummary;

const show = (eventType: string | null) =>
  render(
    <DeliveryRow
      log={log(eventType)}
      selected={false}
      checked={false}
      now={Date.parse('2025-03-01T12:00:05.000Z')}
      onOpen={() => {}}
      onCheck={() => {}}
    />,
  );

describe('a delivery row', () => {
  afterEach(cleanup);

  test('shows the event type as a chip whose title holds it whole', () => {
    show('checkout.session.completed');
    const chip = screen.getByText('checkout.session.completed');
    expect(chip.className).toBe('event-type');
    expect(chip.getAttribute('title')).toBe('Event type: checkout.session.completed');
    expect(screen.getByRole('button').textContent).toBe(
      'POST/hooksVerified (stripe)1.2 KB5 s agocheckout.session.completed',
    );
  });

  test('shows no chip when the delivery names no event', () => {
    const { container } = show(null);
    expect(container.querySelector('.event-type')).toBe(null);
    expect(screen.getByRole('button').textContent).toBe('POST/hooksVerified (stripe)1.2 KB5 s ago');
  });

  test('bidi controls in the path, query and event type show as markers, so the row reads as sent', () => {
    render(
      <DeliveryRow
        log={{ ...log('invoice\u202E.paid'), path: '/files/\u2067abc\u2069', query: { to: '\u202Etxt.exe' } }}
        selected={false}
        checked={false}
        now={Date.parse('2025-03-01T12:00:05.000Z')}
        onOpen={() => {}}
        onCheck={() => {}}
      />,
    );
    expect(screen.getByRole('button').textContent).toBe(
      'POST/files/⟨U+2067⟩abc⟨U+2069⟩?to=⟨U+202E⟩txt.exeVerified (stripe)1.2 KB5 s agoinvoice⟨U+202E⟩.paid',
    );
    expect(screen.getAllByTitle(/^U\+2067 RIGHT-TO-LEFT ISOLATE: /)).toHaveLength(1);
    expect(document.querySelector('.event-type')?.getAttribute('title')).toBe('Event type: invoice⟨U+202E⟩.paid');
  });

  test('the verdict is green only when verified: red when failed, neutral (not green) when nothing was checked', () => {
    const tone = (verification: LogSummary['verification']) => {
      render(
        <DeliveryRow
          log={{ ...log(null), verification }}
          selected={false}
          checked={false}
          now={Date.parse('2025-03-01T12:00:05.000Z')}
          onOpen={() => {}}
          onCheck={() => {}}
        />,
      );
      const cls = document.querySelector('.row-meta .status')?.className;
      cleanup();
      return cls;
    };
    const none = { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null } as const;
    expect(tone(log(null).verification)).toBe('status ok');
    expect(tone({ ...none, scheme: 'stripe', result: 'invalid', reason: 'no_matching_signature' })).toBe(
      'status failed',
    );
    expect(tone(none)).toBe('status neutral');
  });

  test('names its endpoint when given one (All endpoints), after the time', () => {
    render(
      <DeliveryRow
        log={log(null)}
        selected={false}
        checked={false}
        now={Date.parse('2025-03-01T12:00:05.000Z')}
        endpoint="Stripe payments"
        onOpen={() => {}}
        onCheck={() => {}}
      />,
    );
    expect(screen.getByRole('button', { name: /POST/ }).textContent).toBe(
      'POST/hooksVerified (stripe)1.2 KB5 s agoStripe payments',
    );
    expect(screen.getByText('Stripe payments').getAttribute('title')).toBe('Endpoint: Stripe payments');
  });
});
