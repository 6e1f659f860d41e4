import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { apiCaller } from '../helpers/api-call.ts';
import type { Browser } from '../helpers/chromium.ts';
import { startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import {
  captureBothThemes,
  ownerToken,
  signInLink,
  startUi,
  stopUi,
  waitForCount,
  waitForTexts,
} from '../helpers/ui-page.ts';

const SENTENCE = 'The engine stopped; nothing is being received';
const STOPPED_WHY = 'The engine is stopped: this works again once it is back';
/** The page calls it stopped after 5 s with nothing answering (renderer/src/stores/live-store.ts): room for that. */
const VERDICT_MS = 20_000;

/** Each control is disabled, saying why (`why`), or enabled with no such title (`why` null). */
async function assertGated(controls: Locator[], why: string | null): Promise<void> {
  for (const c of controls) {
    const name = await c.textContent();
    assert.equal(await c.isDisabled(), why !== null, `${name} disabled`);
    assert.equal(await c.getAttribute('title'), why, `${name} title`);
  }
}

describe('honest state in Chromium: the engine stopped under the UI and started again, refusals counted', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;
  let token: string;
  const api = apiCaller(
    () => serve.apiUrl,
    () => token,
  );

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-honest-state-'));
    token = await ownerToken(dataDir);
  });
  after(async () => {
    await stopUi({ browser, serve, dataDir });
  });

  test('stop the engine: the alert, actions disabled, Metrics stale; start it on the same port: all back; a burst over the rate limit counted exactly, linking to Settings', async () => {
    const endpoint = await api('POST', '/api/endpoints', { name: 'Orders', validationType: 'none' });
    const deliver = async (body: string): Promise<number> => {
      const res = await fetch(endpoint.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      return res.status;
    };
    for (const n of [1, 2]) assert.equal(await deliver(`{"order":${n}}`), 200);

    const page: Page = await browser.context.newPage();
    let engineDown = false;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // While the engine is down, the browser logs each refused reconnection attempt: that is the outage itself.
      if (engineDown && /ERR_CONNECTION_REFUSED/.test(m.text())) return;
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
    });
    try {
      await page.setViewportSize({ width: 1024, height: 640 });
      await page.goto(await signInLink(dataDir));
      const nav = page.getByRole('navigation', { name: 'Endpoints' });
      const mainNav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'New endpoint' }).waitFor();

      // Metrics read once while the engine runs: these become the last known figures.
      await mainNav.getByRole('link', { name: 'Metrics' }).click();
      await page.getByText('2 deliveries in the last 24 hours', { exact: false }).waitFor();
      const updated = (await page.getByText(/^Updated \d\d:\d\d:\d\d$/).textContent())!.slice('Updated '.length);
      await mainNav.getByRole('link', { name: 'Deliveries' }).click();
      await nav.getByRole('button', { name: /^Orders/ }).click();
      const list = page.getByRole('list', { name: 'Deliveries' });
      await waitForCount(list.locator('button.row'), 2);
      await list.locator('button.row').first().click();
      const actions = page.getByRole('toolbar', { name: 'Delivery actions' });
      await actions.getByRole('button', { name: 'Replay', exact: true }).waitFor();
      const receiving = nav.getByRole('region', { name: 'Receiving URL' });
      const engineControls = [
        ...['Replay', 'Edit and replay', 'Share', 'Copy as cURL', 'Export', 'Pin', 'Delete'].map((name) =>
          actions.getByRole('button', { name, exact: true }),
        ),
        nav.getByRole('button', { name: 'New endpoint' }),
        receiving.getByRole('button', { name: 'Send test delivery' }),
      ];
      await assertGated(engineControls, null);

      // The engine stops under the page.
      const apiPort = new URL(serve.apiUrl).port;
      const receiverPort = new URL(serve.receiverUrl).port;
      engineDown = true;
      serve.child.kill('SIGTERM');
      await serve.exited;
      const alert = page.getByRole('alert').filter({ hasText: SENTENCE });
      await alert.waitFor({ timeout: VERDICT_MS });
      assert.equal(await alert.locator('strong').textContent(), SENTENCE);
      assert.equal(
        await alert.textContent(),
        `${SENTENCE}Start it again with npx hookscope serve --api-port ${apiPort} (or npm start) and the options used before; this page reconnects by itself.`,
      );
      await assertGated(engineControls, STOPPED_WHY);
      assert.equal(await receiving.locator('code').first().getAttribute('class'), 'not-receiving');
      await receiving.getByText('not receiving: the engine is stopped', { exact: true }).waitFor();
      await page.getByText('Engine stopped', { exact: true }).waitFor(); // the top bar's pill
      await captureBothThemes(page, 'engine-stopped', 'the engine stopped under the inspector (1024×640)');

      // Metrics keeps the last figures it read, saying from when.
      await mainNav.getByRole('link', { name: 'Metrics' }).click();
      await page.getByText(`Last known figures, from ${updated}; the engine is stopped`, { exact: true }).waitFor();
      await page.getByText('2 deliveries in the last 24 hours', { exact: false }).waitFor();
      assert.equal(await page.getByText('No metrics yet.').count(), 0);
      await assertGated([page.getByRole('button', { name: 'Refresh' })], STOPPED_WHY);
      await captureBothThemes(
        page,
        'metrics-stale',
        'Metrics with the last known figures, the engine stopped (1024×640)',
      );

      // Started again on the same ports and data directory: the alert goes, the figures are read again.
      serve = await startServe(dataDir, ['--api-port', apiPort, '--receiver-port', receiverPort]);
      assert.equal(new URL(serve.apiUrl).port, apiPort);
      await alert.waitFor({ state: 'detached', timeout: VERDICT_MS });
      engineDown = false;
      await page.getByText(/^Updated \d\d:\d\d:\d\d$/).waitFor();
      assert.equal(await page.getByText(/^Last known figures/).count(), 0);
      await assertGated([page.getByRole('button', { name: 'Refresh' })], null);
      await mainNav.getByRole('link', { name: 'Deliveries' }).click();
      await actions.getByRole('button', { name: 'Replay', exact: true }).waitFor();
      await assertGated(engineControls, null);
      assert.equal(await receiving.locator('code').first().getAttribute('class'), null);

      // A burst over a low rate limit: the list counts exactly the refusals the sender got.
      await api('PATCH', '/api/settings', { rateLimit: { perSecond: 1, burst: 1 } });
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, n) => deliver(`{"burst":${n}}`)));
      const refused = statuses.filter((s) => s === 429).length;
      assert.ok(refused >= 25, `the burst was refused: ${statuses.join(',')}`);
      assert.equal(refused + statuses.filter((s) => s === 200).length, 30);
      const refusals = page.getByRole('region', { name: 'Refused deliveries' });
      await waitForTexts(refusals.locator('.refusal-count'), [
        `${refused} refused by the rate limit in the last minute`,
      ]);
      await captureBothThemes(page, 'refusals', 'refusals counted over the deliveries (1024×640)');

      // The link goes where the rate limit is set.
      await refusals.getByRole('link', { name: 'Rate limit in Settings' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/settings');
      const rate = page.getByRole('textbox', { name: 'Rate limit (deliveries per second)', exact: true });
      await page.getByRole('textbox', { name: 'Burst', exact: true }).waitFor();
      assert.equal(await rate.inputValue(), '1');
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });
});
