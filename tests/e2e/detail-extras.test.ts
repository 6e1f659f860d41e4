import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { Browser } from '../helpers/chromium.ts';
import type { ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer, type Reply } from '../helpers/target-server.ts';
import { assertAccessible, SCREENSHOTS, signInLink, startUi, stopUi, waitForCount } from '../helpers/ui-page.ts';

const THEMES = ['light', 'dark'] as const;

/** Script errors and CSP violations, which must stay none. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

describe('detail extras in Chromium: onboarding, Export, replay diff, custom response', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;
  // Made by the onboarding test, used by the ones after it.
  let secret = '';
  let url = '';
  let logId = '';

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-extras-'));
  });
  after(async () => {
    await stopUi({ browser, serve, dataDir });
  });

  /** A page signed in to the engine, showing the inspector in the given theme. */
  async function open(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.context.newPage();
    const errors = consoleErrors(page);
    await page.goto(await signInLink(dataDir));
    await page.getByRole('button', { name: 'New endpoint' }).waitFor();
    return { page, errors };
  }

  test('a fresh install: one step to an endpoint, one click to a signed capture, opened verified', async () => {
    const { page, errors } = await open();
    try {
      const pane = page.getByRole('region', { name: 'Deliveries pane' });
      const start = pane.getByRole('region', { name: 'Get started' });
      await start.waitFor();
      assert.equal(await start.getByLabel('Endpoint name').inputValue(), 'My first endpoint');
      assert.equal(await start.getByRole('checkbox', { name: /^Check signatures/ }).isChecked(), true);
      secret = (await start.locator('.onboarding-secret > code').textContent()) ?? '';
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      for (const theme of THEMES) {
        await page.getByLabel('Theme').selectOption(theme);
        await page.screenshot({ path: `${SCREENSHOTS}onboarding-${theme}.png` });
        await assertAccessible(page, `onboarding, no endpoint (${theme})`);
      }

      await start.getByRole('button', { name: 'Create endpoint' }).click();
      const first = pane.getByRole('region', { name: 'Waiting for the first delivery to My first endpoint' });
      await first.waitFor();
      // Created and chosen: the endpoints pane marks it, and the list is filtered by it.
      await page
        .getByRole('button', { name: /^My first endpoint/ })
        .and(page.locator('[aria-current="true"]'))
        .waitFor();
      const codes = first.locator('code');
      url = (await codes.nth(0).textContent()) ?? '';
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/webhook\/ep_[a-z0-9]+$/);
      assert.equal(
        await codes.nth(1).textContent(),
        `curl -X POST '${url}' -H 'content-type: application/json' -d '{"hello":"world"}'`,
      );
      await first.getByRole('button', { name: 'Copy URL' }).waitFor();
      await first.getByRole('button', { name: 'Copy cURL command' }).waitFor();
      for (const theme of THEMES) {
        await page.getByLabel('Theme').selectOption(theme);
        await assertAccessible(page, `onboarding, no delivery yet (${theme})`);
      }
      await page.getByLabel('Theme').selectOption('light');

      await first.getByRole('button', { name: 'Send test delivery' }).click();
      const list = page.getByRole('list', { name: 'Deliveries' });
      await waitForCount(list.getByRole('listitem'), 1);
      await list.getByText('Verified (hmac_sha256)').waitFor();
      // Opened at once: the detail shows it, the row is the selected one and the address names it.
      const detail = page.getByRole('region', { name: 'Delivery' });
      await detail.getByText('Verified (hmac_sha256)', { exact: true }).waitFor();
      // The address names the endpoint chosen and the delivery open.
      await page.waitForURL(/#\/endpoints\/ep_[0-9a-z]+\/logs\/log_[0-9a-z]+$/);
      logId = new URL(page.url()).hash.split('/logs/')[1]!;
      assert.equal(await page.locator('[aria-label="Deliveries"] .row-wrap.selected').count(), 1);
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });

  test('Export is a menu; HAR downloads hookscope-<logId>.har holding the delivery', async () => {
    const { page, errors } = await open();
    try {
      await page.goto(`${serve.apiUrl}/#/logs/${logId}`);
      const detail = page.getByRole('region', { name: 'Delivery' });
      const method = (await detail.locator('.request-line .method').textContent()) ?? '';
      assert.equal(method, 'POST');
      const button = detail.getByRole('button', { name: 'Export' });
      assert.equal(await button.getAttribute('aria-haspopup'), 'menu');
      for (const theme of THEMES) {
        await page.getByLabel('Theme').selectOption(theme);
        await button.click();
        const menu = page.getByRole('menu', { name: 'Export as' });
        await menu.waitFor();
        assert.equal(await button.getAttribute('aria-expanded'), 'true');
        assert.deepEqual(await menu.getByRole('menuitem').allTextContents(), ['JSON', 'HAR', 'Raw HTTP']);
        await assertAccessible(page, `export menu open (${theme})`);
        // The keyboard: focus starts on JSON, ArrowDown moves, Escape closes and gives focus back.
        await page.keyboard.press('ArrowDown');
        assert.equal(await page.locator(':focus').textContent(), 'HAR');
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        assert.equal(await page.locator(':focus').textContent(), 'Export');
      }
      await page.getByLabel('Theme').selectOption('light');

      await button.click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'HAR' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), `hookscope-${logId}.har`);
      const har = JSON.parse(await readFile(await download.path(), 'utf8')) as {
        log: { entries: { request: { method: string; url: string } }[] };
      };
      assert.equal(har.log.entries[0]!.request.method, method);
      assert.equal(har.log.entries[0]!.request.url, url);
      await page.getByText(`Exported the delivery as hookscope-${logId}.har.`).waitFor();
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });

  test('two replays answered differently, compared: the status change, headers and body', async () => {
    const target = await TargetServer.start((_req, i): Reply =>
      i === 0
        ? {
            status: 200,
            headers: { 'content-type': 'application/json', 'x-attempt': 'first' },
            body: '{"handled":true}',
          }
        : { status: 500, headers: { 'content-type': 'application/json' }, body: '{"handled":false,"error":"boom"}' },
    );
    const { page, errors } = await open();
    try {
      await page.goto(`${serve.apiUrl}/#/logs/${logId}`);
      await page.getByRole('button', { name: 'Replay', exact: true }).click();
      const replay = page.getByRole('region', { name: 'Replay' });
      await replay.getByLabel('Target URL').fill(target.url);
      const history = replay.getByRole('list', { name: 'Replay history' });
      const explain = page.getByRole('toolbar', { name: 'Delivery actions' }).getByRole('button', { name: 'Explain' });
      for (const n of [1, 2]) {
        await replay.getByRole('button', { name: 'Send' }).click();
        await waitForCount(history.getByRole('listitem'), n);
        // A verified delivery has nothing to explain until a replay of it fails (here the second, 500).
        if (n === 1) assert.equal(await explain.count(), 0);
      }
      await explain.waitFor();
      assert.equal(target.received.length, 2);
      const compare = replay.getByRole('button', { name: 'Compare responses' });
      assert.equal(await compare.isDisabled(), true, 'two replays must be ticked first');
      await history.getByRole('checkbox', { name: /^Compare replay 1 \(200,/ }).check();
      await history.getByRole('checkbox', { name: /^Compare replay 2 \(500,/ }).check();
      await compare.click();
      const diff = replay.getByRole('region', { name: 'Response differences' });
      await diff.getByText('Status: 200 → 500').waitFor();
      const headers = diff.getByRole('region', { name: 'Response headers difference' });
      assert.deepEqual(
        await headers
          .getByRole('row', { name: /x-attempt/ })
          .getByRole('cell')
          .allTextContents(),
        ['removed', 'first', ''],
      );
      const body = diff.getByRole('region', { name: 'Response body difference' });
      await body.locator('.patch-del').filter({ hasText: '"handled": true' }).waitFor();
      await body.locator('.patch-add').filter({ hasText: '"error": "boom"' }).waitFor();
      await diff.scrollIntoViewIfNeeded();
      for (const theme of THEMES) {
        await page.getByLabel('Theme').selectOption(theme);
        await diff.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SCREENSHOTS}replay-diff-${theme}.png` });
        await assertAccessible(page, `replay diff (${theme})`);
      }
      await page.getByLabel('Theme').selectOption('light');
      await diff.getByRole('button', { name: 'Close comparison' }).click();
      await diff.waitFor({ state: 'detached' });
      await explain.click();
      const explanation = page.getByRole('region', { name: 'Explanation' });
      await explanation.getByText('% confident').first().waitFor();
      assert.match((await explanation.textContent()) ?? '', /500/);
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
      await target.close();
    }
  });

  test('a custom response set in the endpoint settings answers deliveries; the engine’s 400 shows by the fields', async () => {
    const { page, errors } = await open();
    try {
      const nav = page.getByRole('navigation', { name: 'Endpoints' });
      // In the New endpoint form the group is there, collapsed.
      await nav.getByRole('button', { name: 'New endpoint' }).click();
      const newForm = nav.getByRole('form', { name: 'New endpoint' });
      assert.equal(await newForm.locator('details.custom-response').getAttribute('open'), null);
      await newForm.getByRole('button', { name: 'Cancel' }).click();

      await nav.getByRole('button', { name: /^My first endpoint/ }).click();
      await nav.getByText('Endpoint settings').click();
      const form = nav.getByRole('form', { name: 'Custom response' });
      await form.getByText('Custom response', { exact: true }).click();
      await form.getByText('Now: the default answer (200 with the delivery id).').waitFor();

      // Refused by the engine: a 204 carries no body. Said beside the fields.
      await form.getByLabel('Status').fill('204');
      await form.getByLabel('Response body').fill('accepted later');
      await form.getByRole('button', { name: 'Save response' }).click();
      await form.getByRole('alert').filter({ hasText: 'body must be empty: a 204 answer carries none.' }).waitFor();

      await form.getByLabel('Status').fill('202');
      await form.getByLabel('Response headers').fill('X-Hookscope-Demo: custom\nRetry-After: 5');
      await form.getByLabel('Delay (ms)').fill('0');
      await form.getByRole('button', { name: 'Save response' }).click();
      await form.getByText('Now: 202, 2 headers, a 14-character body.').waitFor();
      assert.equal(await form.getByRole('alert').count(), 0, 'the refusal is gone once saved');
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}endpoint-custom-response-light.png` });
      await assertAccessible(page, 'endpoint custom response (light)');

      // A signed delivery is answered with it; the list shows it arrived.
      const payload = '{"event":"custom.answer"}';
      const signature = createHmac('sha256', secret).update(payload).digest('hex');
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
        body: payload,
      });
      assert.equal(res.status, 202);
      assert.equal(res.headers.get('x-hookscope-demo'), 'custom');
      assert.equal(res.headers.get('retry-after'), '5');
      assert.equal(await res.text(), 'accepted later');
      const answered = res.headers.get('hookscope-log-id') ?? '';
      const list = page.getByRole('list', { name: 'Deliveries' });
      await list.getByRole('checkbox', { name: new RegExp(`\\(${answered}\\)$`) }).waitFor();
      // The test delivery is answered with it too.
      await nav.getByRole('button', { name: 'Send test delivery' }).click();
      await page.getByText('Test delivery sent: the receiver answered 202.').waitFor();

      // Back to the default answer.
      await form.getByRole('button', { name: 'Use the default answer' }).click();
      await form.getByText('Now: the default answer (200 with the delivery id).').waitFor();
      assert.equal(await form.getByLabel('Status').inputValue(), '');
      const again = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
        body: payload,
      });
      assert.equal(again.status, 200);
      assert.match(await again.text(), /^\{"success":true,"data":\{"id":"log_[0-9a-z]+"\}\}$/);
      assert.deepEqual(
        errors,
        ['Failed to load resource: the server responded with a status of 400 (Bad Request)'],
        'the deliberate refusal only: no script error or CSP violation in the console',
      );
    } finally {
      await page.close();
    }
  });
});
