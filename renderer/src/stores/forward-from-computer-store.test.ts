import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  DESKTOP_BRIDGE_STAND_IN_KEY,
  desktopBridgeStandIn,
  type DesktopBridgeStandInOptions,
  type DesktopBridgeStandInState,
} from '../../../tests/helpers/desktop-bridge-stand-in.ts';
import { startTestEngine, type ComponentEngine } from '../test-engine.ts';
import type { DesktopBridge } from './desktop-store.ts';
import { createForwardFromComputerStore, FORWARD_POLL_MS } from './forward-from-computer-store.ts';
import { manualTimers } from './manual-timers.ts';
import { createNoticesStore } from './notices-store.ts';

// The store over the desktop bridge's stand-in (the main process's side: tests/unit/electron/ and
// tests/integration/desktop-forward.test.ts), and a real engine that issues the sign-in codes.
let running: ComponentEngine;
beforeAll(async () => {
  running = await startTestEngine('hookscope-forward-store-');
});
afterAll(() => running?.stop());
afterEach(() => {
  sessionStorage.clear();
  delete window.hookscopeDesktop;
});

const TEAM = { kind: 'team', url: 'https://hooks.example.com' } as const;

function forwarding(engine: DesktopBridgeStandInOptions['engine'] = TEAM) {
  desktopBridgeStandIn({ engine, reloadOnSwitch: false });
  const notices = createNoticesStore();
  const clock = manualTimers();
  const store = createForwardFromComputerStore(
    running.client,
    window.hookscopeDesktop!,
    notices.getState(),
    clock.timers,
  );
  const calls = (): unknown[][] =>
    (JSON.parse(sessionStorage.getItem(DESKTOP_BRIDGE_STAND_IN_KEY)!) as DesktopBridgeStandInState).calls;
  return { store, notices, clock, calls };
}

describe('the forward-from-this-computer store', () => {
  test('start hands a fresh sign-in code of this account to the desktop app; stop; the state read back', async () => {
    const { store, calls, notices } = forwarding();
    await store.getState().start('ep_one', 'http://localhost:3000/hooks');
    const [start] = calls();
    expect(start![0]).toBe('startForwardFromThisComputer');
    const { signInCode, ...rest } = start![1] as { signInCode: string; endpointId: string; targetUrl: string };
    expect(rest).toEqual({ endpointId: 'ep_one', targetUrl: 'http://localhost:3000/hooks' });
    // A code the engine issued: it signs in once, as the page's own account.
    const traded = await fetch(`${running.engine.apiUrl}/api/session/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: signInCode }),
    });
    expect(traded.status).toBe(200);
    expect(store.getState().forwards).toEqual({
      ep_one: { endpointId: 'ep_one', targetUrl: 'http://localhost:3000/hooks', state: 'catching-up', lastLine: null },
    });
    await store.getState().stop('ep_one');
    expect(store.getState().forwards.ep_one?.state).toBe('stopped');
    expect(calls().map(([name]) => name)).toEqual([
      'startForwardFromThisComputer',
      'forwardsFromThisComputer',
      'stopForwardFromThisComputer',
      'forwardsFromThisComputer',
    ]);
    expect(store.getState().busy).toBeNull();
    expect(notices.getState().notices).toEqual([]);
  });

  test("a refused target keeps the desktop app's sentence for that endpoint only, never a notice; the next start clears it", async () => {
    const { store, notices } = forwarding();
    await store.getState().start('ep_one', 'http://10.0.0.5/hooks');
    expect(store.getState().refusals).toEqual({
      ep_one:
        'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://10.0.0.5/ is sent by the team server.',
    });
    expect(store.getState().forwards).toEqual({});
    await store.getState().start('ep_one', 'http://127.0.0.1:3000/');
    expect(store.getState().refusals).toEqual({});
    expect(notices.getState().notices).toEqual([]);
  });

  test('watch reads now and every 2 s until the last watcher leaves; on this computer there is nothing to show', async () => {
    const { store, calls, clock } = forwarding();
    const unwatch = store.getState().watch();
    const reads = (): number => calls().filter(([name]) => name === 'forwardsFromThisComputer').length;
    await expect.poll(reads).toBe(1);
    expect(clock.pending()).toEqual([FORWARD_POLL_MS]);
    clock.advance(FORWARD_POLL_MS);
    await expect.poll(reads).toBe(2);
    await expect.poll(() => clock.pending()).toEqual([FORWARD_POLL_MS]);
    unwatch();
    expect(clock.pending()).toEqual([]);
    clock.advance(FORWARD_POLL_MS * 3);
    expect(reads()).toBe(2);

    sessionStorage.clear();
    const local = forwarding({ kind: 'local' });
    await local.store.getState().refresh();
    expect(local.store.getState().forwards).toEqual({});
  });

  test('a call the desktop app rejects (a refused sender): a notice for the read, the sentence for start', async () => {
    const refused = (): Promise<never> => Promise.reject(new Error('Refused: the calling frame is gone.'));
    const bridge = {
      startForwardFromThisComputer: refused,
      stopForwardFromThisComputer: refused,
      forwardsFromThisComputer: refused,
    } satisfies Partial<DesktopBridge>;
    const notices = createNoticesStore();
    const store = createForwardFromComputerStore(running.client, bridge, notices.getState());
    await store.getState().start('ep_one', 'http://localhost:3000/');
    expect(store.getState().refusals).toEqual({ ep_one: 'Refused: the calling frame is gone.' });
    expect(notices.getState().notices.map((n) => n.text)).toEqual([
      'Reading the forwards from this computer failed: Refused: the calling frame is gone.',
    ]);
    expect(store.getState().busy).toBeNull();
  });
});
