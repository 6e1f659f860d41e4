import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  DESKTOP_BRIDGE_STAND_IN_KEY,
  desktopBridgeStandIn,
  type DesktopBridgeStandInOptions,
  type DesktopBridgeStandInState,
} from '../../../../tests/helpers/desktop-bridge-stand-in.ts';
import { createAppStores, StoresContext, type AppStores } from '../../stores/app-stores.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { ForwardFromComputer } from './forward-from-computer.tsx';

// The group over the desktop bridge's stand-in (the main process: tests/integration/desktop-forward.test.ts),
// a real engine issuing the sign-in codes.
let running: ComponentEngine;
beforeAll(async () => {
  running = await startTestEngine('hookscope-forward-group-');
});
afterAll(() => running?.stop());
afterEach(() => {
  cleanup();
  sessionStorage.clear();
  delete window.hookscopeDesktop;
});

async function show(engine: DesktopBridgeStandInOptions['engine'] | null): Promise<AppStores> {
  if (engine) desktopBridgeStandIn({ engine, reloadOnSwitch: false });
  const stores = createAppStores(running.client, memoryStorage(), window.hookscopeDesktop ?? null);
  await stores.desktop.getState().load();
  render(
    <StoresContext.Provider value={stores}>
      <ForwardFromComputer endpointId="ep_one" />
    </StoresContext.Provider>,
  );
  return stores;
}

const group = () => screen.getByRole('region', { name: 'Forward from this computer' });

describe('Forward from this computer, in the endpoint panel', () => {
  test('absent in a browser and on this computer', async () => {
    await show(null);
    expect(screen.queryByRole('region', { name: 'Forward from this computer' })).toBeNull();
    cleanup();
    await show({ kind: 'local' });
    expect(screen.queryByRole('region', { name: 'Forward from this computer' })).toBeNull();
  });

  test('on a team server: a refused URL is said under the box (never a notice); Start shows the state; Stop', async () => {
    const stores = await show({ kind: 'team', url: 'https://hooks.example.com' });
    const box = within(group()).getByRole('textbox', { name: 'Forward from this computer to' });
    expect(
      within(group()).getByText(/sub-path and query are added below this URL \(a replay goes to the URL as typed\)/),
    ).toBeTruthy();
    fireEvent.change(box, { target: { value: 'http://192.168.1.20:3000/hooks' } });
    fireEvent.click(within(group()).getByRole('button', { name: 'Start forwarding from this computer' }));
    const problem = await within(group()).findByText(
      'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://192.168.1.20:3000/ is sent by the team server.',
    );
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toContain(problem.id);
    expect(within(group()).getByRole('status').textContent).toBe('');

    fireEvent.change(box, { target: { value: 'http://localhost:3000/hooks' } });
    fireEvent.click(within(group()).getByRole('button', { name: 'Start forwarding from this computer' }));
    await within(group()).findByRole('button', { name: 'Stop forwarding from this computer' });
    expect(within(group()).getByRole('status').textContent).toBe('Catching up on what arrived while off');
    expect(box.getAttribute('aria-invalid')).toBeNull();

    fireEvent.click(within(group()).getByRole('button', { name: 'Stop forwarding from this computer' }));
    await within(group()).findByRole('button', { name: 'Start forwarding from this computer' });
    expect(within(group()).getByRole('status').textContent).toBe('Stopped');
    expect((box as HTMLInputElement).value).toBe('http://localhost:3000/hooks');
    expect(stores.notices.getState().notices).toEqual([]);
    const calls = (JSON.parse(sessionStorage.getItem(DESKTOP_BRIDGE_STAND_IN_KEY)!) as DesktopBridgeStandInState).calls;
    expect(calls.filter(([name]) => name !== 'forwardsFromThisComputer' && name !== 'engine').map(([n]) => n)).toEqual([
      'startForwardFromThisComputer',
      'startForwardFromThisComputer',
      'stopForwardFromThisComputer',
    ]);
  });

  test('a forward kept by the app shows its target, state and last line when the group opens', async () => {
    desktopBridgeStandIn({ engine: { kind: 'team', url: 'https://hooks.example.com' }, reloadOnSwitch: false });
    const state = JSON.parse(sessionStorage.getItem(DESKTOP_BRIDGE_STAND_IN_KEY)!) as DesktopBridgeStandInState;
    state.forwards = [
      {
        endpointId: 'ep_one',
        targetUrl: 'http://127.0.0.1:4000/',
        state: 'live',
        lastLine: '12:00:01  -  POST /a  200  3 ms',
      },
    ];
    sessionStorage.setItem(DESKTOP_BRIDGE_STAND_IN_KEY, JSON.stringify(state));
    delete window.hookscopeDesktop;
    await show({ kind: 'team', url: 'https://hooks.example.com' });
    await within(group()).findByRole('button', { name: 'Stop forwarding from this computer' });
    expect(within(group()).getByRole('status').textContent).toBe('Forwarding live12:00:01  -  POST /a  200  3 ms');
    // Filled by an effect after the render that shows the state: waited for, not read in that same turn.
    await expect
      .poll(
        () => within(group()).getByRole<HTMLInputElement>('textbox', { name: 'Forward from this computer to' }).value,
      )
      .toBe('http://127.0.0.1:4000/');
  });
});
