import { afterEach, describe, expect, test } from 'vitest';
import {
  DESKTOP_BRIDGE_STAND_IN_KEY,
  desktopBridgeStandIn,
  type DesktopBridgeStandInOptions,
  type DesktopBridgeStandInState,
} from '../../../tests/helpers/desktop-bridge-stand-in.ts';
import { createNoticesStore } from './notices-store.ts';
import { createDesktopStore, engineLabel, type DesktopBridge } from './desktop-store.ts';

/** The store over the desktop bridge's stand-in, as the desktop app's page has it. */
function desktop(engine: DesktopBridgeStandInOptions['engine'] = { kind: 'local' }) {
  desktopBridgeStandIn({ engine, reloadOnSwitch: false });
  const notices = createNoticesStore();
  const store = createDesktopStore(window.hookscopeDesktop!, notices.getState());
  const calls = (): unknown[][] =>
    (JSON.parse(sessionStorage.getItem(DESKTOP_BRIDGE_STAND_IN_KEY)!) as DesktopBridgeStandInState).calls;
  return { store, notices, calls };
}

afterEach(() => {
  sessionStorage.clear();
  delete window.hookscopeDesktop;
});

describe('the desktop store', () => {
  test('in a browser (no bridge) it is unavailable and asks nothing', async () => {
    const store = createDesktopStore(null, createNoticesStore().getState());
    await store.getState().load();
    await store.getState().connect('https://hooks.example.com', 'abc');
    expect(store.getState()).toMatchObject({ available: false, engine: null, error: null, connecting: false });
  });

  test('reads the engine shown; names it as the top bar does', async () => {
    const { store, calls } = desktop({ kind: 'team', url: 'https://hooks.example.com' });
    expect(store.getState()).toMatchObject({ available: true, engine: null });
    await store.getState().load();
    expect(store.getState().engine).toEqual({ kind: 'team', url: 'https://hooks.example.com' });
    expect(calls()).toEqual([['engine']]);
    expect(engineLabel({ kind: 'team', url: 'https://hooks.example.com:8443/team' })).toBe('hooks.example.com:8443');
    expect(engineLabel({ kind: 'local' })).toBe('This computer');
  });

  test("a refused URL keeps the desktop app's sentence; the next try clears it; a success passes both fields", async () => {
    const { store, calls } = desktop();
    await store.getState().connect('http://hooks.example.com', 'https://hooks.example.com/#/sign-in/abc');
    expect(store.getState().error).toBe(
      'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).',
    );
    expect(store.getState().connecting).toBe(false);
    await store.getState().connect('https://hooks.example.com', 'https://hooks.example.com/#/sign-in/abc');
    expect(store.getState().error).toBeNull();
    expect(calls()).toEqual([
      ['connectTeamServer', { url: 'http://hooks.example.com', signInLink: 'https://hooks.example.com/#/sign-in/abc' }],
      [
        'connectTeamServer',
        { url: 'https://hooks.example.com', signInLink: 'https://hooks.example.com/#/sign-in/abc' },
      ],
    ]);
  });

  test('a call the desktop app rejects (a refused sender) becomes a notice, never swallowed', async () => {
    const refused = (): Promise<never> => Promise.reject(new Error('Refused: the calling frame is gone.'));
    const bridge: DesktopBridge = {
      engine: refused,
      connectTeamServer: refused,
      useThisComputer: refused,
      sendFromThisComputer: refused,
      startForwardFromThisComputer: refused,
      stopForwardFromThisComputer: refused,
      forwardsFromThisComputer: refused,
    };
    const notices = createNoticesStore();
    const store = createDesktopStore(bridge, notices.getState());
    await store.getState().load();
    await store.getState().connect('https://hooks.example.com', 'abc');
    await store.getState().useThisComputer();
    expect(notices.getState().notices.map((n) => n.text)).toEqual([
      'Reading the engine shown failed: Refused: the calling frame is gone.',
      'Connecting to the team server failed: Refused: the calling frame is gone.',
      'Switching to this computer failed: Refused: the calling frame is gone.',
    ]);
    expect(store.getState().connecting).toBe(false);
  });

  test('"Use this computer" asks the desktop app', async () => {
    const { store, calls } = desktop({ kind: 'team', url: 'https://hooks.example.com' });
    await store.getState().useThisComputer();
    expect(calls()).toEqual([['useThisComputer']]);
  });
});
