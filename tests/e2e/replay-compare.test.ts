import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { apiCaller } from '../helpers/api-call.ts';
import type { Browser } from '../helpers/chromium.ts';
import { type ServeProcess } from '../helpers/cli-process.ts';
import { closedPort, type ClosedPort } from '../helpers/closed-port.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { captureBothThemes, ownerToken, signInLink, startUi, stopUi, waitForTexts } from '../helpers/ui-page.ts';

const SECRET = 'whsec_e2e_replay_compare_secret';

describe('replay and compare in Chromium: outcomes inline, the request sent, the target remembered, named sides, Explain live', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;
  let token: string;
  let closed: ClosedPort;
  let target: TargetServer;
  let orders: { id: string; url: string };
  let plain: { id: string; url: string };
  let page: Page;
  const errors: string[] = [];

  const api = apiCaller(
    () => serve.apiUrl,
    () => token,
  );
  /** A delivery through the receiver; answers its log id. */
  const deliver = async (url: string, body: string, signed: boolean): Promise<string> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signed) headers['x-webhook-signature'] = createHmac('sha256', SECRET).update(body).digest('hex');
    const res = await fetch(url, { method: 'POST', headers, body });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const openLog = async (logId: string): Promise<void> => {
    await page.goto(`${serve.apiUrl}/#/logs/${logId}`);
    await page.getByRole('region', { name: 'Delivery' }).getByRole('heading', { level: 2 }).waitFor();
  };
  const actions = () => page.getByRole('toolbar', { name: 'Delivery actions' });
  const explain = () => actions().getByRole('button', { name: 'Explain' });
  const toasts = () => page.locator('.notice');

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-replay-'));
    token = await ownerToken(dataDir);
    orders = await api('POST', '/api/endpoints', {
      name: 'Orders',
      validationType: 'hmac_sha256',
      webhookSecret: SECRET,
    });
    plain = await api('POST', '/api/endpoints', { name: 'Plain', validationType: 'none' });
    closed = await closedPort();
    target = await TargetServer.start(() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' }));
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // Replays that got no answer are 502s of the API: the browser logs each failed request.
      if (m.type() === 'error' && !/status of 502/.test(m.text())) errors.push(m.text());
    });
    await page.goto(await signInLink(dataDir));
    await page.getByRole('button', { name: 'New endpoint' }).waitFor();
  });
  after(async () => {
    await page?.close();
    await target?.close();
    await closed?.release();
    await stopUi({ browser, serve, dataDir });
  });

  test('a replay to a closed port shows the refusal inline and in the history; Explain then appears', async () => {
    const logId = await deliver(`${orders.url}/orders/retry`, '{"order":1}', true);
    await openLog(logId);
    // Verified, and never replayed: nothing to explain.
    assert.equal(await explain().count(), 0);
    await actions().getByRole('button', { name: 'Replay', exact: true }).click();
    const replay = page.getByRole('region', { name: 'Replay', exact: true });
    // Focus lands in the panel's first field (issue 22, point 3) or not: the field is filled either way.
    const url = `${closed.url}/orders/retry`;
    await replay.getByLabel('Target URL').fill(url);
    await replay.getByRole('button', { name: 'Send' }).click();
    const result = replay.getByRole('group', { name: 'Replay result' });
    await result.getByText('No answer').waitFor();
    assert.match(
      (await result.locator('.verdict').textContent()) ?? '',
      new RegExp(
        `^No answer \\(TARGET_UNREACHABLE\\) after \\d+ ms${url.replace(/[.]/g, '\\.')} could not be reached: the connection was refused \\(is the server running on that port\\?\\)\\.$`,
      ),
    );
    assert.match(
      (await result.locator('.replay-sent').textContent()) ?? '',
      /^POST http:\/\/127\.0\.0\.1:\d+\/orders\/retry · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    const history = replay.getByRole('list', { name: 'Replay history' });
    await waitForTexts(history.locator('li .status'), ['TARGET_UNREACHABLE']);
    assert.equal(await toasts().count(), 0, 'told inline, not in a toast');
    // The failed replay makes the verified delivery explainable: the engine says so, live.
    await explain().waitFor();
    await result.scrollIntoViewIfNeeded();
    await captureBothThemes(page, 'replay-refused', 'replay refused inline');
  });

  test('Explain appears for a delivery whose replay failed elsewhere, without a reload (the event)', async () => {
    const logId = await deliver(`${orders.url}/orders/other`, '{"order":2}', true);
    await openLog(logId);
    assert.equal(await explain().count(), 0);
    // Another client (the CLI, a teammate's page) replays it to a dead target.
    const res = await fetch(`${serve.apiUrl}/api/replay/${logId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ targetUrl: closed.url }),
    });
    assert.equal(res.status, 502);
    await explain().click();
    await page.getByRole('region', { name: 'Explanation' }).getByText('% confident').first().waitFor();
  });

  test('an edited replay is tagged, and View shows the request as sent beside the response', async () => {
    const logId = await deliver(`${orders.url}/orders/retry`, '{"order":3}', true);
    await openLog(logId);
    await actions().getByRole('button', { name: 'Edit and replay' }).click();
    const panel = page.getByRole('region', { name: 'Edit and replay' });
    const url = `${target.url}/orders/retry`;
    await panel.getByLabel('Target URL').fill(url);
    const body = `{"order":3,"pad":"${'x'.repeat(70_000)}"}`;
    await panel.getByLabel('Request body').fill(body);
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByRole('group', { name: 'Replay result' }).getByText('200', { exact: true }).waitFor();
    const history = panel.getByRole('list', { name: 'Replay history' });
    await waitForTexts(history.locator('li .tag-edited'), ['edited']);

    await history.getByRole('button', { name: 'View replay 1: request and response' }).click();
    const attempt = panel.getByRole('group', { name: 'Replay attempt' });
    const sent = attempt.getByRole('region', { name: 'Request sent', exact: true });
    assert.equal(await sent.locator('.request-line').textContent(), `POST ${url}`);
    const names = (await sent.getByRole('rowheader').allTextContents()).map((n) => n.toLowerCase());
    assert.deepEqual(names.slice(0, 2), ['host', 'content-type']);
    assert.ok(names.includes('x-webhook-signature'), names.join());
    assert.deepEqual(names.slice(-3), ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']);
    await sent.getByText(`First 64 KiB of ${body.length.toLocaleString('en-US')} bytes`).waitFor();
    assert.equal(((await sent.getByRole('region', { name: 'Body sent' }).textContent()) ?? '').length, 65_536);
    const response = attempt.getByRole('region', { name: 'Response', exact: true });
    assert.match((await response.locator('.verdict').textContent()) ?? '', /^200 in \d+ ms$/);
    assert.equal(target.received.at(-1)!.body.length, body.length);
    await attempt.scrollIntoViewIfNeeded();
    await captureBothThemes(page, 'replay-exchange', 'replay attempt: the request sent and the response');
    await page.setViewportSize({ width: 1024, height: 640 });
    try {
      await attempt.scrollIntoViewIfNeeded();
      await captureBothThemes(page, 'replay-exchange-1024', 'replay attempt at 1024×640');
    } finally {
      await page.setViewportSize({ width: 1100, height: 900 });
    }
  });

  test('the target is remembered: the most recent one used, exactly for the same sub-path, after a reload too', async () => {
    const again = await deliver(`${orders.url}/orders/retry`, '{"order":4}', true);
    const other = await deliver(`${orders.url}/orders/other`, '{"order":5}', true);
    const elsewhere = await deliver(plain.url, '{"order":6}', false);
    await page.reload();
    const offered = async (logId: string): Promise<string> => {
      await openLog(logId);
      await actions().getByRole('button', { name: 'Replay', exact: true }).click();
      const value = await page
        .getByRole('region', { name: 'Replay', exact: true })
        .getByLabel('Target URL')
        .inputValue();
      await actions().getByRole('button', { name: 'Replay', exact: true }).click();
      return value;
    };
    // The last target used (the edited replay's), whatever the one before it.
    assert.equal(await offered(again), `${target.url}/orders/retry`);
    assert.equal(await offered(other), `${target.url}/orders/other`);
    // An endpoint never replayed gets the last target used anywhere.
    assert.equal(await offered(elsewhere), target.url);

    // A target typed that does not end in the sub-path is offered as typed next time.
    await openLog(again);
    await actions().getByRole('button', { name: 'Replay', exact: true }).click();
    const replay = page.getByRole('region', { name: 'Replay', exact: true });
    await replay.getByLabel('Target URL').fill(`${target.url}/hooks`);
    await replay.getByRole('button', { name: 'Send' }).click();
    await replay.getByRole('group', { name: 'Replay result' }).getByText('200', { exact: true }).waitFor();
    await actions().getByRole('button', { name: 'Replay', exact: true }).click();
    assert.equal(await offered(again), `${target.url}/hooks`);
  });

  test('compare names both sides by endpoint, time and verification', async () => {
    const older = await deliver(`${orders.url}/orders/retry`, '{"order":7,"amount":10}', true);
    const newer = await deliver(plain.url, '{"order":7,"amount":12}', false);
    await page.goto(`${serve.apiUrl}/#/`);
    const list = page.getByRole('list', { name: 'Deliveries' });
    await list.getByRole('checkbox', { name: `Select POST /orders/retry (${older})` }).check();
    await list.getByRole('checkbox', { name: `Select POST / (${newer})` }).check();
    await page.getByRole('toolbar', { name: 'Selected deliveries' }).getByRole('button', { name: 'Compare' }).click();
    const comparison = page.getByRole('region', { name: 'Comparison' });
    const sides = comparison.getByRole('list', { name: 'Compared deliveries' }).getByRole('listitem');
    const time = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/.source;
    await waitForTexts(sides, [
      new RegExp(`^A · Orders · ${time} · Verified \\(hmac_sha256\\)POST /orders/retry \\(${older}\\)$`),
      new RegExp(`^B · Plain · ${time} · Not verifiedPOST / \\(${newer}\\)$`),
    ]);
    await captureBothThemes(page, 'compare-sides', 'compare with named sides');
    await page.setViewportSize({ width: 1024, height: 640 });
    try {
      await captureBothThemes(page, 'compare-sides-1024', 'compare with named sides at 1024×640');
    } finally {
      await page.setViewportSize({ width: 1100, height: 900 });
    }
    await comparison.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
  });
});
