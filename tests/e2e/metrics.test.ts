import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { apiCaller } from '../helpers/api-call.ts';
import { launchChromium, type Browser } from '../helpers/chromium.ts';
import { runCli, startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { tempDirs } from '../helpers/temp-dir.ts';
import { assertAccessible, SCREENSHOTS } from '../helpers/ui-page.ts';

// Removed once the file's tests are done.
const tempDir = tempDirs('hookscope-e2e-metrics-');

const SECRET = 'e2e-metrics-secret';

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

/** The totals as the screen shows them: [label, figure] pairs. */
function totals(page: Page): Promise<string[][]> {
  return page
    .locator('.totals > div')
    .evaluateAll((divs) => divs.map((d) => [d.querySelector('dt')!.textContent!, d.querySelector('dd')!.textContent!]));
}

/** A table's body rows as cell texts. */
function rows(page: Page, caption: string): Promise<string[][]> {
  return page
    .locator('table', { has: page.locator('caption', { hasText: caption }) })
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!.trim())));
}

describe('the Metrics screen in Chromium, against a real `hookscope serve`', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let target: TargetServer;
  let dataDir: string;
  let token: string;

  const api = apiCaller(
    () => serve.apiUrl,
    () => token,
  );
  const deliver = async (url: string, body: string, signature: string | null): Promise<number> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== null) headers['x-webhook-signature'] = signature;
    const res = await fetch(url, { method: 'POST', headers, body });
    await res.arrayBuffer();
    return res.status;
  };
  const sign = (body: string): string => createHmac('sha256', SECRET).update(body).digest('hex');

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    dataDir = await tempDir();
    serve = await startServe(dataDir);
    token = await cli(['token', '--data-dir', dataDir]);
    target = await TargetServer.start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await target?.close();
    serve?.child.kill('SIGTERM');
    await serve?.exited;
  });

  test('totals, failures by reason and the endpoint table show exactly what arrived, in both themes', async () => {
    const orders = await api('POST', '/api/endpoints', {
      name: 'Orders',
      validationType: 'hmac_sha256',
      webhookSecret: SECRET,
    });
    const legacy = await api('POST', '/api/endpoints', { name: 'Legacy', validationType: 'none' });
    await api('PATCH', `/api/endpoints/${legacy.id}`, { isActive: false });

    const body = (n: number): string => JSON.stringify({ event: 'order.paid', n });
    for (const n of [1, 2, 3]) assert.equal(await deliver(orders.url, body(n), sign(body(n))), 200);
    for (const n of [4, 5]) assert.equal(await deliver(orders.url, body(n), sign('something else')), 400);
    assert.equal(await deliver(orders.url, body(6), null), 400);
    assert.equal(await deliver(legacy.url, body(7), null), 410);
    const { logs } = await api('GET', `/api/webhooks/logs?endpointId=${orders.id}&status=success&limit=1`);
    await api('POST', `/api/replay/${logs[0].id}`, { targetUrl: `http://127.0.0.1:${target.port}/hooks` });

    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // The engine serves no favicon (the browser's own request, not the UI's): reported, not this screen's concern.
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
    });
    try {
      await page.goto(await cli(['open', '--print', '--data-dir', dataDir]));
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Metrics' }).click();
      await page.getByRole('heading', { name: 'Metrics', level: 2 }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/metrics');
      assert.equal(
        await page.getByRole('link', { name: 'Metrics' }).getAttribute('aria-current'),
        'page',
        'the current screen is marked in the navigation',
      );

      await page.getByText('7 deliveries in the last 24 hours').waitFor();
      assert.deepEqual(await totals(page), [
        ['Received', '7'],
        ['Success', '3'],
        ['Failed', '3'],
        ['Rejected', '1'],
        ['Success rate', '42.9%'],
      ]);
      assert.deepEqual(await rows(page, 'Failures by reason'), [
        ['no_matching_signature', 'Failed verification', '2'],
        ['missing_header', 'Failed verification', '1'],
        ['endpoint_inactive', 'Rejected (not stored)', '1'],
      ]);
      const endpointRows = await rows(page, 'Deliveries per endpoint');
      assert.deepEqual(
        endpointRows.map((r) => r.slice(0, 6)),
        [
          [`Orders ${orders.id}`, '6', '3', '3', '0', '50%'],
          [`Legacy ${legacy.id}`, '1', '0', '0', '1', '0%'],
        ],
      );
      assert.match(endpointRows[0]![6]!, /^(just now|\d+ s ago)$/);
      await page.getByText('1 (1 replayed, 0 forwarded)').waitFor();
      assert.equal((await page.locator('.metrics canvas').count()) > 0, true, 'uPlot drew the charts');
      assert.equal(await rows(page, 'Deliveries per hour').then((r) => r.length), 24);

      // Another window: the same deliveries, cut into 60 one-minute buckets.
      await page.getByRole('radio', { name: '1h' }).check();
      await page.getByText('7 deliveries in the last hour').waitFor();
      assert.equal(await rows(page, 'Deliveries per minute').then((r) => r.length), 60);
      assert.equal((await totals(page))[0]![1], '7');

      // While the screen is open, a new delivery shows by itself (refreshes at most every 5 s).
      assert.equal(await deliver(orders.url, body(8), sign(body(8))), 200);
      await page.getByText('8 deliveries in the last hour').waitFor({ timeout: 15_000 });
      assert.deepEqual((await totals(page)).slice(0, 2), [
        ['Received', '8'],
        ['Success', '4'],
      ]);

      // Tall enough that the whole screen (which scrolls inside the page) is in the picture.
      await page.setViewportSize({ width: 1100, height: 1200 });
      for (const theme of ['light', 'dark'] as const) {
        await page.getByLabel('Theme').selectOption(theme);
        await page.screenshot({ path: `${SCREENSHOTS}metrics-${theme}.png`, fullPage: true });
        await page.getByText('Traffic as a table').click();
        await assertAccessible(page, `metrics (${theme})`);
        await page.getByText('Traffic as a table').click();
      }

      // The address keeps the screen across a reload; "Deliveries" goes back to the panes.
      await page.reload();
      await page.getByText('8 deliveries in the last 24 hours').waitFor();
      await page.getByRole('link', { name: 'Deliveries' }).click();
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/');
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });
});
