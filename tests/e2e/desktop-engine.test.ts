// The desktop app's engine switch in the renderer (Settings, "Team server", and
// the engine shown in the top bar), and a replay sent from this computer while a
// team server is shown, in Chromium against a real `hookscope serve`.
// The desktop bridge (`window.hookscopeDesktop`, put there by Electron's preload)
// is a stand-in that records the calls and behaves like the desktop app
// (tests/helpers/desktop-bridge-stand-in.ts); its send call runs the main
// process's own (electron/local-send.ts with the real http-sender) in this
// process; the main process's side is tested in tests/unit/electron/ and
// tests/integration/electron-main.test.ts.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { ForwardChoice } from '../../electron/forward-input.ts';
import { forwardManager } from '../../electron/forward-wiring.ts';
import { send } from '../../server/replay/http-sender.ts';
import { apiCaller } from '../helpers/api-call.ts';
import { desktopSend } from '../helpers/desktop-send.ts';
import type { Browser } from '../helpers/chromium.ts';
import {
  DESKTOP_BRIDGE_STAND_IN_KEY,
  desktopBridgeStandInScript,
  type DesktopBridgeStandInState,
} from '../helpers/desktop-bridge-stand-in.ts';
import type { ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer, waitUntil, type Reply } from '../helpers/target-server.ts';
import { makeTempDir } from '../helpers/test-engine.ts';
import {
  assertAccessible,
  captureBothThemes,
  ownerToken,
  SCREENSHOTS,
  signInLink,
  startUi,
  stopUi,
  waitForTexts,
} from '../helpers/ui-page.ts';

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
    await stopUi({ browser, serve, dataDir });
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

  test(
    'on a team server, a replay to 127.0.0.1 is sent from this computer: the exact request, the attempt in the ' +
      'history as from this computer, a second one compared with it',
    async () => {
      const token = await ownerToken(dataDir);
      const api = apiCaller(
        () => serve.apiUrl,
        () => token,
      );
      // The laptop's dev server: it answers differently the second time, so the comparison has something to say.
      const target = await TargetServer.start((_req, i): Reply =>
        i === 0
          ? { status: 201, headers: { 'X-Run': 'one', 'Content-Type': 'application/json' }, body: '{"ok":true}' }
          : { status: 500, headers: { 'Content-Type': 'application/json' }, body: '{"ok":false}' },
      );
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      try {
        const endpoint = (await api('POST', '/api/endpoints', { name: 'Laptop', validationType: 'none' })) as {
          id: string;
          url: string;
        };
        const body = '{"order":1,"note":"é"}';
        const delivered = await fetch(`${endpoint.url}/orders/retry?x=1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-first': 'one' },
          body,
        });
        assert.equal(delivered.status, 200);
        const logId = ((await delivered.json()) as { data: { id: string } }).data.id;

        await page.setViewportSize({ width: 1024, height: 640 });
        // The main process's send call, in this process: what the page hands over is checked and sent for real.
        await page.exposeFunction('hookscopeStandInSend', desktopSend);
        const teamOrigin = new URL(serve.apiUrl).origin;
        await page.addInitScript({
          content: desktopBridgeStandInScript({
            engine: { kind: 'team', url: teamOrigin },
            reloadOnSwitch: false,
            sendBinding: 'hookscopeStandInSend',
          }),
        });
        await page.goto(await signInLink(dataDir));
        await page.getByRole('button', { name: 'New endpoint' }).waitFor();
        await page.getByTitle('The engine this window shows').getByText(new URL(teamOrigin).host).waitFor();
        await page.goto(`${serve.apiUrl}/#/logs/${logId}`);
        await page.getByRole('region', { name: 'Delivery' }).getByRole('heading', { level: 2 }).waitFor();
        await page
          .getByRole('toolbar', { name: 'Delivery actions' })
          .getByRole('button', { name: 'Replay', exact: true })
          .click();
        const panel = page.getByRole('region', { name: 'Replay', exact: true });
        const field = panel.getByLabel('Target URL');
        const fromHere = panel.getByText('Sent from this computer: the team server cannot reach it.');

        // A target off this computer is the team server's to send: nothing is said.
        await field.fill('https://hooks.example.com/orders');
        assert.equal(await fromHere.count(), 0);
        const targetUrl = `${target.url}/hook`;
        await field.fill(targetUrl);
        await fromHere.waitFor();
        assert.equal(await field.getAttribute('aria-describedby'), await fromHere.getAttribute('id'));

        await panel.getByRole('button', { name: 'Send' }).click();
        const result = panel.getByRole('group', { name: 'Replay result' });
        await result.getByText('201', { exact: true }).waitFor();
        const history = panel.getByRole('list', { name: 'Replay history' });
        await waitForTexts(history.locator('li'), [
          new RegExp(`^201 POST ${targetUrl} · \\d+ ms · From this computer · `),
        ]);

        await panel.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await captureBothThemes(
          page,
          'desktop-replay-from-this-computer',
          'replay from this computer on a team server',
        );

        // What the dev server got is what the page handed to the desktop app, byte for byte: the engine's request.
        assert.equal(target.received.length, 1);
        const state = JSON.parse(
          await page.evaluate<string>(`sessionStorage.getItem(${JSON.stringify(DESKTOP_BRIDGE_STAND_IN_KEY)})`),
        ) as DesktopBridgeStandInState;
        const sends = state.calls.filter(([name]) => name === 'sendFromThisComputer').map(([, r]) => r) as {
          method: string;
          url: string;
          headers: [string, string][];
          body: string;
          bodyEncoding: 'utf8' | 'base64';
        }[];
        assert.equal(sends.length, 1);
        const [got] = target.received;
        assert.equal(got!.method, 'POST');
        assert.equal(got!.url, '/hook');
        assert.deepEqual(got!.body, Buffer.from(body));
        assert.deepEqual(got!.rawHeaders, [...sends[0]!.headers, ['Connection', 'close']]);
        // The delivery's headers in order (the connection's left out, Host this target's), then the engine's own.
        const log = (await api('GET', `/api/webhooks/logs/${logId}`)) as {
          rawHeaders: [string, string][];
          sourceIp: string;
        };
        const arrivedHost = log.rawHeaders.find(([n]) => n.toLowerCase() === 'host')![1];
        assert.deepEqual(got!.rawHeaders, [
          ...log.rawHeaders
            .filter(([n]) => n.toLowerCase() !== 'connection')
            .map(([n, v]) => (n.toLowerCase() === 'host' ? [n, `127.0.0.1:${target.port}`] : [n, v])),
          ['X-Forwarded-For', log.sourceIp],
          ['X-Forwarded-Host', arrivedHost],
          ['X-Forwarded-Proto', 'http'],
          ['Connection', 'close'],
        ]);

        // Recorded by the team server like any replay: in its history, marked as sent by the client.
        const recorded = (await api('GET', `/api/replay/${logId}/history`)) as {
          history: { trigger: string; status: number; targetUrl: string }[];
        };
        assert.deepEqual(
          recorded.history.map((h) => [h.trigger, h.status, h.targetUrl]),
          [['client', 201, targetUrl]],
        );

        // A second attempt, then the two compared.
        await panel.getByRole('button', { name: 'Send' }).click();
        await result.getByText('500', { exact: true }).waitFor();
        await waitForTexts(history.locator('li .status'), ['500', '201']);
        assert.equal(target.received.length, 2);
        await history.getByRole('checkbox', { name: /^Compare replay 1 / }).check();
        await history.getByRole('checkbox', { name: /^Compare replay 2 / }).check();
        await panel.getByRole('button', { name: 'Compare responses' }).click();
        const diff = panel.getByRole('region', { name: 'Response differences' });
        await diff.getByText('Status: 201 → 500').waitFor();
        assert.equal(await page.locator('.notice').count(), 0, 'no error told');

        // The history's two attempts from this computer, and their comparison below.
        await history.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await captureBothThemes(
          page,
          'desktop-replay-from-this-computer-compared',
          'two replays from this computer compared',
        );
        assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
      } finally {
        await page.close();
        await target.close();
      }
    },
  );

  test(
    'on a team server, "Forward from this computer" in the endpoint panel: started from the UI, a delivery goes ' +
      "from the main process to the dev server, the status says so, the delivery's history too; stopped",
    async () => {
      const token = await ownerToken(dataDir);
      const api = apiCaller(
        () => serve.apiUrl,
        () => token,
      );
      const team = new URL(serve.apiUrl).origin;
      // The main process's forward manager with its real parts, in this process, on a data directory of its own.
      const appDir = await makeTempDir('hookscope-e2e-desktop-forward-');
      const choices = new Map<string, ForwardChoice[]>();
      const manager = forwardManager({
        dataDir: appDir,
        choices: { load: (url) => choices.get(url) ?? [], save: async (url, list) => void choices.set(url, list) },
        send,
        logger: { warn: () => undefined },
        retry: { initialMs: 50, maxMs: 200 },
        engineRetry: { initialMs: 50, maxMs: 200 },
      });
      await manager.show({ kind: 'team', url: team });
      const target = await TargetServer.start(() => ({ status: 202, body: 'taken' }));
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      try {
        const endpoint = (await api('POST', '/api/endpoints', { name: 'Forwarded', validationType: 'none' })) as {
          id: string;
          url: string;
        };
        await page.setViewportSize({ width: 1024, height: 640 });
        await page.exposeFunction('hookscopeStandInForwardStart', (input: unknown) => manager.start(team, input));
        await page.exposeFunction('hookscopeStandInForwardStop', (input: unknown) => manager.stop(team, input));
        await page.exposeFunction('hookscopeStandInForwards', () => {
          const list = manager.list(team);
          return list.ok ? { ok: true, forwards: list.value } : list;
        });
        await page.addInitScript({
          content: desktopBridgeStandInScript({
            engine: { kind: 'team', url: team },
            reloadOnSwitch: false,
            forwardBindings: {
              start: 'hookscopeStandInForwardStart',
              stop: 'hookscopeStandInForwardStop',
              list: 'hookscopeStandInForwards',
            },
          }),
        });
        await page.goto(await signInLink(dataDir));
        await page.getByRole('button', { name: /^Forwarded/ }).click();
        const group = page.getByRole('region', { name: 'Forward from this computer' });
        const field = group.getByRole('textbox', { name: 'Forward from this computer to' });
        const status = group.getByRole('status');

        // Off this computer: the desktop app's sentence under the box, nothing started.
        await field.fill('http://192.168.1.20:3000/hooks');
        await group.getByRole('button', { name: 'Start forwarding from this computer' }).click();
        const problem = group.getByText(
          'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://192.168.1.20:3000/ is sent by the team server.',
        );
        await problem.waitFor();
        assert.equal(await field.getAttribute('aria-invalid'), 'true');

        await field.fill(`${target.url}/hooks`);
        await group.getByRole('button', { name: 'Start forwarding from this computer' }).click();
        await group.getByRole('button', { name: 'Stop forwarding from this computer' }).waitFor();
        await status.getByText('Forwarding live').waitFor();
        assert.equal(await problem.count(), 0);

        const body = '{"order":7,"note":"é"}';
        const delivered = await fetch(`${endpoint.url}/orders?x=1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        assert.equal(delivered.status, 200);
        const logId = ((await delivered.json()) as { data: { id: string } }).data.id;
        await target.waitForCount(1);
        assert.equal(target.received[0]!.url, '/hooks/orders?x=1');
        assert.deepEqual(target.received[0]!.body, Buffer.from(body));
        // The main process's line, read by the page's poll.
        await status.getByText(/^\d\d:\d\d:\d\d {2}- {2}POST \/orders\?x=1 {2}202 {2}\d+ ms$/).waitFor();
        const history = await waitUntil(async () => {
          const h = (await api('GET', `/api/replay/${logId}/history`)) as {
            history: { trigger: string; status: number; targetUrl: string }[];
          };
          return h.history.length > 0 ? h.history : null;
        }, 'the attempt in the history');
        assert.deepEqual(
          history.map((h) => [h.trigger, h.status, h.targetUrl]),
          [['client', 202, `${target.url}/hooks/orders?x=1`]],
        );

        await group.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await captureBothThemes(page, 'desktop-forward-from-this-computer', 'forward from this computer, live');

        await group.getByRole('button', { name: 'Stop forwarding from this computer' }).click();
        await group.getByRole('button', { name: 'Start forwarding from this computer' }).waitFor();
        await status.getByText('Stopped').waitFor();
        await group.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await captureBothThemes(
          page,
          'desktop-forward-from-this-computer-stopped',
          'forward from this computer, stopped',
        );
        assert.equal(await page.locator('.notice').count(), 0, 'no error told');
        assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
      } finally {
        await page.close();
        await manager.stopAll();
        await target.close();
        await rm(appDir, { recursive: true, force: true });
      }
    },
  );
});
