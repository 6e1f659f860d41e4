import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { browserClient, type LogDetail } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { DetailPane } from './detail-pane.tsx';

/** A header value as the engine stores it: the UTF-8 bytes received, one latin1 character per byte (as Node gives them). */
const received = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

const detail = {
  id: 'log_1',
  endpointId: 'ep_1',
  method: 'POST',
  path: '/',
  query: {},
  headers: {},
  rawHeaders: [
    ['X-Customer', received('Zoë Müller ✓')],
    ['X-Latin1', 'caf\u00e9'],
  ],
  contentType: null,
  size: 0,
  truncated: false,
  sourceIp: '127.0.0.1',
  receivedAt: '2025-03-01T12:00:00.000Z',
  status: 'success',
  verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
  pinned: false,
  eventType: null,
  body: '',
  bodyEncoding: 'utf8',
  answer: null,
  answerUnknown: 'Stored before Hookscope recorded its answers.',
} as unknown as LogDetail;

describe('header values in the detail', () => {
  afterEach(cleanup);

  test('a UTF-8 value reads as sent, not as Latin-1 mojibake; Copy copies that text; other bytes stay as they are', async () => {
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    stores.selection.setState({ selectedId: 'log_1', detail });
    render(
      <StoresContext.Provider value={stores}>
        <DetailPane />
      </StoresContext.Provider>,
    );
    expect(screen.getByRole('rowheader', { name: 'X-Customer' }).nextSibling?.textContent).toBe('Zoë Müller ✓Copy');
    expect(screen.queryByText(/Ã/)).toBeNull();
    expect(screen.getByRole('rowheader', { name: 'X-Latin1' }).nextSibling?.textContent).toBe('caféCopy');

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByRole('button', { name: 'Copy X-Customer' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('Zoë Müller ✓'));
  });
});
