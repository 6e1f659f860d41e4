import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { browserClient, type LogDetail } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { DetailPane } from './detail-pane.tsx';

const detail = {
  id: 'log_1',
  endpointId: 'ep_1',
  method: 'POST',
  path: '/files/\u2067abc\u2069',
  query: { to: '\u202Etxt.exe' },
  headers: {},
  rawHeaders: [
    ['Content-Type', 'application/json\u200e'],
    ['X-Na\u202Eme', 'invoice_\u202Efdp.exe'],
  ],
  contentType: 'application/json\u200e',
  size: 2,
  declaredSize: 2,
  storedSize: 2,
  truncated: false,
  sourceIp: '127.0.0.1',
  receivedAt: '2025-03-01T12:00:00.000Z',
  durationMs: 1,
  status: 'failed',
  verification: {
    scheme: 'hmac_sha256',
    result: 'invalid',
    reason: 'no_matching_signature',
    detail: 'X-Sig holds "\u2066zz\u2069".',
    matchedSecret: null,
  },
  pinned: false,
  eventType: null,
  body: '{}',
  bodyEncoding: 'utf8',
  answer: {
    kind: 'verification_failed',
    status: 400,
    headers: [['content-type', 'application/json; charset=utf-8']],
    body: '{"success":false}',
    bodyEncoding: 'utf8',
    delayMs: 0,
  },
  answerUnknown: null,
} as unknown as LogDetail;

describe('the delivery detail', () => {
  afterEach(cleanup);

  test('bidi controls in the request line, headers, query and verdict show as markers; Copy copies the exact value', async () => {
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    stores.selection.setState({ selectedId: 'log_1', detail });
    render(
      <StoresContext.Provider value={stores}>
        <DetailPane />
      </StoresContext.Provider>,
    );
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'POST /files/⟨U+2067⟩abc⟨U+2069⟩?to=⟨U+202E⟩txt.exe',
    );
    expect(screen.getByRole('rowheader', { name: 'X-Na⟨U+202E⟩me' }).nextSibling?.textContent).toContain(
      'invoice_⟨U+202E⟩fdp.exe',
    );
    expect(screen.getByRole('rowheader', { name: 'to' }).nextSibling?.textContent).toBe('⟨U+202E⟩txt.exe');
    expect(screen.getByRole('alert').textContent).toContain('X-Sig holds "⟨U+2066⟩zz⟨U+2069⟩".');
    expect(document.querySelector('.meta')?.textContent).toContain('application/json⟨U+200E⟩');
    expect(screen.getAllByTitle(/^U\+202E RIGHT-TO-LEFT OVERRIDE: /).length).toBeGreaterThanOrEqual(3);

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByRole('button', { name: 'Copy X-Na\u202Eme' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('invoice_\u202Efdp.exe'));
  });
});
