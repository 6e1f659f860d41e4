import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../../../server/api-client/api-client.ts';
import { createAppStores, StoresContext } from '../../../stores/app-stores.ts';
import { memoryStorage } from '../../../test-engine.ts';
import { SharePanel } from './share-panel.tsx';

/** The panel over an engine stand-in that records each share request's body and echoes its choices; `opened`: as s or Share open it. */
function show(opened = false) {
  const bodies: unknown[] = [];
  const client = createApiClient({
    baseUrl: 'http://engine.test',
    fetch: async (req) => {
      const body = (await req.json()) as { expiresInHours: number; redact: boolean; redactPath: boolean };
      bodies.push(body);
      const data = {
        logId: 'log_1',
        url: 'http://127.0.0.1:4681/share/tok',
        expiresAt: '2030-01-01T00:00:00.000Z',
        expiresInHours: body.expiresInHours,
        redacted: body.redact,
        pathRedacted: body.redactPath,
        localOnly: true,
        browserNotice: null,
        createdAt: '2029-12-31T00:00:00.000Z',
      };
      return new Response(JSON.stringify({ success: true, data }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  const stores = createAppStores(client, memoryStorage());
  if (opened) stores.ui.getState().setPanel('share');
  render(
    <StoresContext.Provider value={stores}>
      <SharePanel logId="log_1" />
    </StoresContext.Provider>,
  );
  return { bodies };
}

describe('SharePanel', () => {
  afterEach(cleanup);

  test('"Hide path" is a named checkbox, off by default: the link is made without path redaction', async () => {
    const { bodies } = show();
    const hidePath = screen.getByRole('checkbox', { name: 'Hide path' });
    expect(hidePath).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Redact' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByText('http://127.0.0.1:4681/share/tok');
    expect(bodies).toEqual([{ expiresInHours: 24, redact: true, redactPath: false }]);
    expect(screen.getByLabelText('Share link')).toHaveTextContent(/, redacted\. No tunnel/);
  });

  test('checked, the request asks for path redaction and the result says the path is redacted', async () => {
    const { bodies } = show();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Hide path' }));
    expect(screen.getByRole('checkbox', { name: 'Hide path' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByText('http://127.0.0.1:4681/share/tok');
    expect(bodies).toEqual([{ expiresInHours: 24, redact: true, redactPath: true }]);
    // The time is shown in the machine's zone: only what follows it is asserted.
    expect(screen.getByLabelText('Share link')).toHaveTextContent(/Expires [^,]+, redacted, path redacted\. No tunnel/);
  });

  test('opened, the cursor is in its first field; Enter there creates the link', async () => {
    const { bodies } = show(true);
    const hours = screen.getByLabelText('Expires in (hours)');
    expect(document.activeElement).toBe(hours);
    fireEvent.change(hours, { target: { value: '2' } });
    expect(fireEvent.keyDown(hours, { key: 'Enter' })).toBe(false);
    await screen.findByText('http://127.0.0.1:4681/share/tok');
    expect(bodies).toEqual([{ expiresInHours: 2, redact: true, redactPath: false }]);
  });
});
