import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApiClient } from '../../../../server/api-client/api-client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { SwitchAccountDialog } from './switch-account-dialog.tsx';
import { TopBar } from '../top-bar/top-bar.tsx';

// jsdom has no modal dialogs: opening one here just sets `open` (Chromium's own is seen in the e2e test).
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const LOCAL = { account: { id: 'acct_local', name: 'local' }, owner: true };
const TEAMMATE = { account: { id: 'acct_teammate', name: 'teammate' }, owner: false };
const USED = { code: 'SIGN_IN_CODE_INVALID', message: 'This sign-in link has expired or was already used.' };

/**
 * A stand-in engine for a browser signed in as `local`: `code-local` signs in
 * again; `code-teammate` is refused with the engine's 409 unless the switch is
 * confirmed; any other code is spent. Every request is recorded as `METHOD path body`.
 */
function engine() {
  const calls: string[] = [];
  const client = createApiClient({
    baseUrl: 'http://engine.test',
    fetch: async (req) => {
      const path = new URL(req.url).pathname;
      const body = req.method === 'GET' || req.method === 'DELETE' ? '' : await req.text();
      calls.push(`${req.method} ${path}${body ? ` ${body}` : ''}`);
      const { code, switchAccount } = body ? (JSON.parse(body) as { code: string; switchAccount?: boolean }) : {};
      if (req.method === 'GET' && path === '/api/session') return json(200, { success: true, data: LOCAL });
      if (req.method === 'POST' && path === '/api/session') {
        if (code === 'code-local') return json(200, { success: true, data: LOCAL });
        if (code !== 'code-teammate') return json(401, { success: false, error: USED });
        if (switchAccount) return json(200, { success: true, data: TEAMMATE });
        const details = { signedInAs: LOCAL.account, account: TEAMMATE.account };
        return json(409, { success: false, error: { code: 'ACCOUNT_SWITCH_UNCONFIRMED', message: 'm', details } });
      }
      if (req.method === 'DELETE' && path === '/api/session') {
        return json(200, { success: true, data: { signedOut: true } });
      }
      return json(200, { success: true, data: {} });
    },
  });
  return { stores: createAppStores(client, memoryStorage()), calls };
}

function show(stores: ReturnType<typeof engine>['stores'], reload = vi.fn()) {
  render(
    <StoresContext.Provider value={stores}>
      <SwitchAccountDialog reload={reload} />
    </StoresContext.Provider>,
  );
  return reload;
}

describe('a sign-in link opened while signed in', () => {
  afterEach(cleanup);

  test("another account's link asks first, naming both; Stay keeps the session and sends nothing more", async () => {
    const { stores, calls } = engine();
    show(stores);
    await act(() => stores.session.getState().start('code-teammate'));

    const dialog = screen.getByRole('dialog', { name: 'Switch accounts?' });
    expect(dialog).toHaveAccessibleDescription(
      'This sign-in link is for the account teammate. You are signed in as local.',
    );
    expect(screen.getByRole('button', { name: 'Stay as local' })).toHaveFocus();
    expect(stores.session.getState().account).toEqual(LOCAL.account);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay as local' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stores.session.getState()).toMatchObject({
      status: 'signed-in',
      account: LOCAL.account,
      switchRequest: null,
    });
    expect(calls).toEqual(['POST /api/session {"code":"code-teammate"}', 'GET /api/session']);
  });

  test('Switch spends the code, signs in as the other account and starts the page over', async () => {
    const { stores, calls } = engine();
    const reload = show(stores);
    await act(() => stores.session.getState().start('code-teammate'));
    fireEvent.click(screen.getByRole('button', { name: 'Switch to teammate' }));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(stores.session.getState()).toMatchObject({ status: 'signed-in', account: TEAMMATE.account, owner: false });
    expect(calls.at(-1)).toBe('POST /api/session {"code":"code-teammate","switchAccount":true}');
  });

  test('a link for the same account signs in again without asking', async () => {
    const { stores, calls } = engine();
    show(stores);
    await act(() => stores.session.getState().start('code-local'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls).toEqual(['POST /api/session {"code":"code-local"}']);
    expect(stores.session.getState()).toMatchObject({ status: 'signed-in', account: LOCAL.account });
  });

  test('a used link keeps the session and says why', async () => {
    const { stores } = engine();
    show(stores);
    await act(() => stores.session.getState().start('code-spent'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stores.session.getState()).toMatchObject({ status: 'signed-in', account: LOCAL.account });
    expect(stores.notices.getState().notices.map((n) => n.text)).toEqual([
      'Signing in with the link failed: This sign-in link has expired or was already used. (SIGN_IN_CODE_INVALID)',
    ]);
  });
});

describe('the top bar names the signed-in account', () => {
  afterEach(cleanup);

  test('"Signed in as" the account; Sign out ends the session on the engine', async () => {
    const { stores, calls } = engine();
    await stores.session.getState().start(null);
    render(
      <StoresContext.Provider value={stores}>
        <TopBar />
      </StoresContext.Provider>,
    );
    const banner = screen.getByRole('banner');
    expect(banner).toHaveTextContent('Signed in as local');
    fireEvent.click(within(banner).getByRole('button', { name: 'Sign out' }));
    await vi.waitFor(() => expect(stores.session.getState().status).toBe('signed-out'));
    expect(calls.at(-1)).toBe('DELETE /api/session');
  });
});
