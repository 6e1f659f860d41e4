import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../../server/api-client/api-client.ts';
import {
  DESKTOP_BRIDGE_STAND_IN_KEY,
  desktopBridgeStandIn,
  type DesktopBridgeStandInOptions,
  type DesktopBridgeStandInState,
} from '../../../../tests/helpers/desktop-bridge-stand-in.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { TopBar } from '../top-bar/top-bar.tsx';
import { TeamServerSection } from './team-server-section.tsx';

// The section and the top bar only talk to the desktop bridge here; the engine is never asked.
const offline = createApiClient({ baseUrl: 'http://engine.test', fetch: () => Promise.reject(new Error('offline')) });

async function show(engine: DesktopBridgeStandInOptions['engine'] | null) {
  if (engine) desktopBridgeStandIn({ engine, reloadOnSwitch: false });
  const stores = createAppStores(offline, memoryStorage(), window.hookscopeDesktop ?? null);
  await stores.desktop.getState().load();
  render(
    <StoresContext.Provider value={stores}>
      <TopBar />
      <TeamServerSection />
    </StoresContext.Provider>,
  );
  return stores;
}

/** The section's "Showing: …" line. */
const shownLine = (): string | null =>
  within(screen.getByRole('region', { name: 'Team server' })).getByText('Showing:', { exact: false }).textContent;

const calls = (): unknown[][] =>
  (JSON.parse(sessionStorage.getItem(DESKTOP_BRIDGE_STAND_IN_KEY)!) as DesktopBridgeStandInState).calls;

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  delete window.hookscopeDesktop;
});

describe('the team server section and the engine shown in the top bar', () => {
  test('in a browser, neither is there', async () => {
    await show(null);
    expect(screen.queryByRole('heading', { name: 'Team server' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Team server URL' })).toBeNull();
    expect(screen.queryByText('This computer')).toBeNull();
  });

  test('on this computer: the state, both fields and Connect, no way back to offer', async () => {
    await show({ kind: 'local' });
    expect(screen.getByRole('heading', { name: 'Team server', level: 3 })).toBeTruthy();
    expect(shownLine()).toBe('Showing: This computer');
    expect(screen.getByTitle('The engine this window shows').textContent).toBe('Showing: This computer');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Team server URL' }).value).toBe('');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Sign-in link' }).value).toBe('');
    expect(screen.getByRole('button', { name: 'Connect to team server' }).textContent).toBe('Connect');
    expect(screen.queryByRole('button', { name: 'Use this computer' })).toBeNull();
  });

  test("a refused URL shows the desktop app's sentence tied to both fields; a good one is sent as typed", async () => {
    await show({ kind: 'local' });
    const url = screen.getByRole('textbox', { name: 'Team server URL' });
    const link = screen.getByRole('textbox', { name: 'Sign-in link' });
    fireEvent.change(url, { target: { value: 'http://hooks.example.com' } });
    fireEvent.change(link, { target: { value: 'https://hooks.example.com/#/sign-in/abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect to team server' }));
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe(
      'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).',
    );
    for (const box of [url, link]) {
      expect(box.getAttribute('aria-invalid')).toBe('true');
      expect(box.getAttribute('aria-describedby')).toBe(error.id);
    }
    fireEvent.change(url, { target: { value: 'https://hooks.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect to team server' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(calls().filter(([name]) => name === 'connectTeamServer')).toEqual([
      ['connectTeamServer', { url: 'http://hooks.example.com', signInLink: 'https://hooks.example.com/#/sign-in/abc' }],
      [
        'connectTeamServer',
        { url: 'https://hooks.example.com', signInLink: 'https://hooks.example.com/#/sign-in/abc' },
      ],
    ]);
  });

  test('on a team server: its host in the section and the top bar, and "Use this computer" asks to come back', async () => {
    await show({ kind: 'team', url: 'https://hooks.example.com' });
    expect(shownLine()).toBe('Showing: hooks.example.com');
    expect(screen.getByTitle('The engine this window shows').textContent).toBe('Showing: hooks.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Use this computer' }));
    await waitFor(() => expect(calls().at(-1)).toEqual(['useThisComputer']));
  });
});
