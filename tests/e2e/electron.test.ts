// The desktop app itself, in Electron, driven by Playwright's `_electron`. It
// runs wherever `npm start` would open the app (Electron's binary downloaded,
// the shell built, a display) and is reported as skipped, with the reason, where
// it would not, such as the machines that cannot download Electron's binary.
// (The main process's wiring is tested everywhere under a stand-in Electron:
// tests/integration/electron-main.test.ts.)
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { _electron } from 'playwright-core';
import Stripe from 'stripe';
import { probeElectron, startPlan } from '../../server/cli/commands/start.ts';
import { describe, test } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SECRET = 'whsec_e2e_desktop_secret';
const newDir = tempDirs('hookscope-e2e-electron-');
// Root on Linux: Chromium's sandbox refuses to start, so `npm start` runs headless there. The test
// (a CI container often runs as root) still runs the app, with --no-sandbox, said below.
const asRoot = process.platform === 'linux' && process.getuid?.() === 0;

const plan = startPlan({ ...probeElectron(process.env), env: process.env, platform: process.platform, root: false });
const skip = plan.kind === 'headless' ? `Electron cannot run here: ${plan.reason}` : false;

describe('the desktop app in Electron (Playwright _electron)', () => {
  test('launch, the window shows the endpoints pane, send a delivery, see it appear', { skip }, async () => {
    if (plan.kind !== 'electron') return;
    const dataDir = await newDir();
    // No public tunnel in tests: traffic stays on loopback.
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ tunnel: { enabled: false } }));
    const app = await _electron.launch({
      executablePath: plan.binary,
      args: [ROOT, ...(asRoot ? ['--no-sandbox'] : [])],
      env: {
        ...process.env,
        HOOKSCOPE_DATA_DIR: dataDir,
        HOOKSCOPE_API_PORT: '0',
        HOOKSCOPE_RECEIVER_PORT: '0',
      },
    });
    try {
      const page = await app.firstWindow();
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      // Signed in by the one-time link, which then left the address bar; the page has no Node: it reaches
      // the engine over HTTP, and the preload adds only the desktop bridge, which says this computer is shown.
      assert.equal(new URL(page.url()).hash, '');
      assert.equal(await page.evaluate(() => typeof (globalThis as Record<string, unknown>).require), 'undefined');
      assert.deepEqual(
        await page.evaluate(() =>
          Object.keys((globalThis as unknown as { hookscopeDesktop: object }).hookscopeDesktop),
        ),
        ['engine', 'connectTeamServer', 'useThisComputer', 'sendFromThisComputer'],
      );
      assert.deepEqual(
        await page.evaluate(() =>
          (globalThis as unknown as { hookscopeDesktop: { engine(): Promise<unknown> } }).hookscopeDesktop.engine(),
        ),
        { kind: 'local' },
      );
      await page.getByTitle('The engine this window shows').getByText('This computer').waitFor();
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
        '',
        'the session cookie is HttpOnly',
      );

      await page.getByRole('button', { name: 'New endpoint' }).click();
      await page.getByLabel('Name').fill('Desktop payments');
      await page.getByLabel('Validation type').selectOption('stripe');
      await page.getByLabel('Secret').fill(SECRET);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('button', { name: 'Copy URL' }).waitFor();
      const url = (await page.locator('.endpoint-url code').first().textContent()) ?? '';
      assert.match(url, /\/webhook\/ep_[a-z0-9]+$/);

      const payload = JSON.stringify({ id: 'evt_desktop_1', type: 'invoice.paid' });
      const sent = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
        },
        body: payload,
      });
      assert.equal(sent.status, 200);
      const list = page.getByRole('list', { name: 'Deliveries' });
      await list.getByRole('listitem').first().waitFor();
      assert.equal(await list.getByRole('listitem').count(), 1);

      const runtime = JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8')) as { pid: number };
      assert.equal(runtime.pid, await app.evaluate(() => process.pid), "the CLI finds the app's engine");
    } finally {
      await app.close();
    }
    assert.equal(existsSync(join(dataDir, 'runtime.json')), false, 'quit stopped the engine');
  });
});
