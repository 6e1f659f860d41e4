// The desktop app's engine switch in the renderer (Settings, "Team server", and
// the engine shown in the top bar), in Chromium against a real `hookscope serve`.
// The desktop bridge (`window.hookscopeDesktop`, put there by Electron's preload)
// is a stand-in that records the calls and behaves like the desktop app
// (tests/helpers/desktop-bridge-stand-in.ts); the main process's side is tested
// in tests/unit/electron/ and tests/integration/electron-main.test.ts.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { Browser } from '../helpers/chromium.ts';
import {
  DESKTOP_BRIDGE_STAND_IN_KEY,
  desktopBridgeStandInScript,
  type DesktopBridgeStandInState,
} from '../helpers/desktop-bridge-stand-in.ts';
import type { ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { assertAccessible, SCREENSHOTS, signInLink, startUi, stopUi } from '../helpers/ui-page.ts';

const REFUSED_HTTP =
  'The team server must be reached over https:// (plain http:// only on this computer, e.g. http://127.0.0.1).';

/** The page's script errors and console errors (a CSP violation is one). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
  });
  return errors;
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
}

/** The section and the top bar, each as an image, in the light then the dark theme, with axe in each. */
async function capture(page: Page, state: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.getByLabel('Theme').selectOption(theme);
    for (let i = 0; (await page.locator('html').getAttribute('data-theme')) !== theme; i++) {
      assert.ok(i < 100, `the page did not turn ${theme}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await page.getByRole('region', { name: 'Team server' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}desktop-team-server-${state}-${theme}.png` });
    await page.locator('header.top-bar').screenshot({ path: `${SCREENSHOTS}desktop-top-bar-${state}-${theme}.png` });
    await assertAccessible(page, `the team server section, ${state} (${theme})`);
  }
  await page.getByLabel('Theme').selectOption('light');
}

describe('the desktop engine switch in Chromium, against a real `hookscope serve`', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-desktop-engine-'));
  });
  after(async () => {
    await stopUi({ browser, serve });
    await rm(dataDir, { recursive: true, force: true });
  });

  test('Settings connects to a team server (a refused URL says why), the top bar names it, "Use this computer" comes back', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.addInitScript({
      content: desktopBridgeStandInScript({ engine: { kind: 'local' }, reloadOnSwitch: true }),
    });
    const shownInTopBar = page.getByTitle('The engine this window shows');
    const section = page.getByRole('region', { name: 'Team server' });
    try {
      await page.goto(await signInLink(dataDir));
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      await shownInTopBar.getByText('This computer').waitFor();
      assert.equal(await shownInTopBar.textContent(), 'Showing: This computer');

      await openSettings(page);
      await section.getByText('Showing:').waitFor();
      assert.equal(await section.getByText('Showing:').textContent(), 'Showing: This computer');
      assert.equal(await section.getByRole('button', { name: 'Use this computer' }).count(), 0);

      // Plain http to another machine: the desktop app's sentence, tied to both boxes.
      const url = page.getByRole('textbox', { name: 'Team server URL', exact: true });
      const link = page.getByRole('textbox', { name: 'Sign-in link', exact: true });
      await url.fill('http://hooks.example.com');
      await link.fill('https://hooks.example.com/#/sign-in/e2eCode');
      await page.getByRole('button', { name: 'Connect to team server' }).click();
      const alert = section.getByRole('alert');
      await alert.waitFor();
      assert.equal(await alert.textContent(), REFUSED_HTTP);
      assert.equal(await url.getAttribute('aria-describedby'), await alert.getAttribute('id'));
      assert.equal(await url.getAttribute('aria-invalid'), 'true');
      await capture(page, 'refused');

      // A good one: the window shows the team server (the stand-in reloads the page, as the window loads another).
      await url.fill('https://hooks.example.com');
      await page.getByRole('button', { name: 'Connect to team server' }).click();
      await shownInTopBar.getByText('hooks.example.com').waitFor();
      assert.equal(await shownInTopBar.textContent(), 'Showing: hooks.example.com');
      await section.getByRole('button', { name: 'Use this computer' }).waitFor();
      assert.equal(await section.getByText('Showing:').textContent(), 'Showing: hooks.example.com');
      assert.equal(await section.getByRole('alert').count(), 0, 'no error after the reload');
      await capture(page, 'team');

      await section.getByRole('button', { name: 'Use this computer' }).click();
      await shownInTopBar.getByText('This computer').waitFor();
      assert.equal(await section.getByRole('button', { name: 'Use this computer' }).count(), 0);

      const state = JSON.parse(
        await page.evaluate<string>(`sessionStorage.getItem(${JSON.stringify(DESKTOP_BRIDGE_STAND_IN_KEY)})`),
      ) as DesktopBridgeStandInState;
      assert.deepEqual(
        state.calls.filter(([name]) => name !== 'engine'),
        [
          [
            'connectTeamServer',
            { url: 'http://hooks.example.com', signInLink: 'https://hooks.example.com/#/sign-in/e2eCode' },
          ],
          [
            'connectTeamServer',
            { url: 'https://hooks.example.com', signInLink: 'https://hooks.example.com/#/sign-in/e2eCode' },
          ],
          ['useThisComputer'],
        ],
      );
      assert.ok(
        state.calls.filter(([name]) => name === 'engine').length >= 3,
        'each page load asks which engine is shown',
      );
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });

  test('in a plain browser (no desktop bridge) neither the section nor the top bar label is there', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    try {
      await page.goto(await signInLink(dataDir));
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      await openSettings(page);
      await page.getByRole('region', { name: 'Appearance' }).waitFor();
      assert.equal(await page.getByRole('region', { name: 'Team server' }).count(), 0);
      assert.equal(await page.getByTitle('The engine this window shows').count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
