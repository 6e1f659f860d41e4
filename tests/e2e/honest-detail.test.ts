import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { apiCaller } from '../helpers/api-call.ts';
import type { Browser } from '../helpers/chromium.ts';
import { type ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { captureBothThemes, ownerToken, signInLink, startUi, stopUi, waitForCount } from '../helpers/ui-page.ts';

const SECRET = 'whsec_e2e_honest_detail';
/** Older deliveries to Plain, so the list has rows to scroll down to. */
const SEEDED = 30;

/** What a sender got: the status and body the receiver answered. */
interface Got {
  status: number;
  body: string;
}

describe('honest state in the detail and the list, in Chromium, against a real `hookscope serve`', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;
  let token: string;
  let page: Page;
  let orders: { id: string; url: string };
  let plain: { id: string; url: string };
  let custom: { id: string; url: string };
  const errors: string[] = [];

  const api = apiCaller(
    () => serve.apiUrl,
    () => token,
  );
  const send = async (url: string, body: string, headers: Record<string, string> = {}): Promise<Got> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: res.status, body: await res.text() };
  };
  const signed = (body: string) => ({ 'x-webhook-signature': createHmac('sha256', SECRET).update(body).digest('hex') });

  const list = () => page.getByRole('list', { name: 'Deliveries' });
  const detail = () => page.getByRole('region', { name: 'Delivery' });
  const card = () => detail().getByRole('region', { name: 'Answered to the sender' });
  const nav = () => page.getByRole('navigation', { name: 'Endpoints' });
  const follow = () => page.getByRole('button', { name: 'Follow newest' });
  const opened = (path: string) =>
    detail()
      .getByRole('heading', { level: 2, name: `POST ${path}` })
      .waitFor();
  /** What the first rows shown say of their endpoint ('(none)' for a row that names none). */
  const rowEndpoints = async (n: number): Promise<string[]> =>
    (
      await list()
        .getByRole('listitem')
        .evaluateAll((items) => items.map((i) => i.querySelector('.row-endpoint')?.textContent ?? '(none)'))
    ).slice(0, n);
  const colour = async (selector: string, property: 'color' | 'backgroundColor'): Promise<string> =>
    page
      .locator(selector)
      .first()
      .evaluate((el, p) => el.ownerDocument.defaultView?.getComputedStyle(el)[p] ?? '', property);

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-honest-'));
    token = await ownerToken(dataDir);
    orders = await api('POST', '/api/endpoints', {
      name: 'Orders',
      validationType: 'hmac_sha256',
      webhookSecret: SECRET,
    });
    plain = await api('POST', '/api/endpoints', { name: 'Plain', validationType: 'none' });
    custom = await api('POST', '/api/endpoints', {
      name: 'Custom',
      validationType: 'none',
      customResponse: { status: 202, headers: [{ name: 'X-Reply', value: 'later' }], body: 'queued' },
    });
    for (let n = 1; n <= SEEDED; n++) assert.equal((await send(`${plain.url}/seed/${n}`, `{"n":${n}}`)).status, 200);
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
    });
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.goto(await signInLink(dataDir));
    await list().getByText(`/seed/${SEEDED}`, { exact: true }).waitFor();
  });
  after(async () => {
    await page?.close();
    await stopUi({ browser, serve, dataDir });
  });

  test('"Answered to the sender": the 400 of a bad signature with its body, and a custom response as it was sent', async () => {
    const bad = await send(`${orders.url}/bad`, '{"order":1}', { 'x-webhook-signature': 'sha256=00' });
    assert.equal(bad.status, 400);
    // "Follow newest" (on by default) opens it as it arrives.
    await opened('/bad');
    await card().locator('.answer-status').filter({ hasText: '400 Refused: the signature did not verify.' }).waitFor();
    assert.equal(await card().getByRole('region', { name: 'Answer body' }).textContent(), bad.body);
    assert.equal(JSON.parse(bad.body).error.code, 'SIGNATURE_VERIFICATION_FAILED');
    await card().scrollIntoViewIfNeeded();
    await captureBothThemes(page, 'answer-card', 'the answer to a bad signature (1024×640)');

    const got = await send(`${custom.url}/custom`, '{"order":2}');
    assert.deepEqual(got, { status: 202, body: 'queued' });
    await opened('/custom');
    await card()
      .locator('.answer-status')
      .filter({ hasText: '202 The endpoint’s custom response, as it was when the delivery came.' })
      .waitFor();
    assert.equal(
      await card().getByRole('rowheader', { name: 'X-Reply' }).locator('xpath=..').locator('td').textContent(),
      'later',
    );
    assert.equal(await card().getByRole('region', { name: 'Answer body' }).textContent(), 'queued');
  });

  test('"Not verified" is not green: the row and the banner differ from a verified delivery in colour', async () => {
    assert.equal((await send(`${orders.url}/good`, '{"order":3}', signed('{"order":3}'))).status, 200);
    await opened('/good');
    const verified = {
      row: await colour('[aria-label="Deliveries"] .row-meta .status.ok', 'color'),
      banner: await colour('[aria-label="Delivery"] .verdict', 'backgroundColor'),
      bannerText: await colour('[aria-label="Delivery"] .verdict', 'color'),
    };
    assert.equal((await send(`${plain.url}/plain`, '{"order":4}')).status, 200);
    await opened('/plain');
    await detail().locator('.verdict.neutral').getByText('Not verified', { exact: true }).waitFor();
    const none = {
      row: await colour('[aria-label="Deliveries"] .row-meta .status.neutral', 'color'),
      banner: await colour('[aria-label="Delivery"] .verdict', 'backgroundColor'),
      bannerText: await colour('[aria-label="Delivery"] .verdict', 'color'),
    };
    assert.notEqual(none.row, verified.row, 'the row verdict');
    assert.notEqual(none.banner, verified.banner, 'the banner');
    assert.notEqual(none.bannerText, verified.bannerText, "the banner's text");
    // Neutral is the muted text colour, the one the row's size and time have.
    assert.equal(none.row, await colour('[aria-label="Deliveries"] .row-meta', 'color'));
    await captureBothThemes(page, 'not-verified', 'a delivery nothing was checked on (1024×640)');
  });

  test('in All endpoints each row names its endpoint; with one endpoint chosen, none does', async () => {
    const named = ['Plain', 'Orders', 'Custom', 'Orders', 'Plain'];
    for (let i = 0; i < 100 && JSON.stringify(await rowEndpoints(5)) !== JSON.stringify(named); i++)
      await page.waitForTimeout(50);
    assert.deepEqual(await rowEndpoints(5), named);
    assert.equal(await list().getByText('Orders', { exact: true }).first().getAttribute('title'), 'Endpoint: Orders');

    await nav()
      .getByRole('button', { name: /^Orders/ })
      .click();
    await waitForCount(list().getByRole('listitem'), 2);
    assert.equal(await list().locator('.row-endpoint').count(), 0);
    await nav().getByRole('button', { name: 'All endpoints' }).click();
    await waitForCount(list().getByRole('listitem').filter({ hasText: 'Custom' }), 1);
  });

  test('scrolled down, three arrivals show "3 new deliveries"; clicking it goes to them', async () => {
    await list().getByText(`/seed/${SEEDED}`, { exact: true }).waitFor();
    // The top row open: it is the list's tab stop, and the scroll below takes it out of sight.
    const top = list().getByRole('listitem').first();
    const topPath = await top.locator('.path').textContent();
    await top.locator('button.row').click();
    await list().hover();
    await page.mouse.wheel(0, 900);
    const scroller = page.locator('.deliveries-pane .scroller');
    for (let i = 0; i < 100 && (await scroller.evaluate((el) => el.scrollTop)) <= 800; i++)
      await page.waitForTimeout(50);
    assert.equal(await follow().getAttribute('aria-pressed'), 'false', 'opening a row and scrolling paused following');
    const before = await scroller.evaluate((el) => el.scrollTop);
    assert.ok(before > 800, `scrolled down (${before})`);
    // The list is still one tab stop: the open row is drawn, out of sight, so Tab reaches the list.
    assert.deepEqual(await list().locator('button.row[tabindex="0"]').locator('.path').allTextContents(), [topPath]);

    for (const n of [1, 2, 3]) assert.equal((await send(`${plain.url}/new/${n}`, `{"new":${n}}`)).status, 200);
    const bar = page.getByRole('button', { name: '3 new deliveries' });
    await bar.waitFor();
    // The rows being read stayed in place: the list moved down by the three rows that came above them.
    assert.equal(await scroller.evaluate((el) => el.scrollTop), before + 3 * 52);
    await captureBothThemes(page, 'new-arrivals', '"3 new deliveries" over a list scrolled down (1024×640)');

    await bar.click();
    await bar.waitFor({ state: 'detached' });
    assert.equal(await scroller.evaluate((el) => el.scrollTop), 0);
    const paths = await list().getByRole('listitem').locator('.path').allTextContents();
    assert.deepEqual(paths.slice(0, 3), ['/new/3', '/new/2', '/new/1']);
    assert.equal(await follow().getAttribute('aria-pressed'), 'false', 'what is open stays open');
  });

  test('a reload keeps the chosen endpoint; an endpoint deleted since falls back to All endpoints, with no error', async () => {
    await nav()
      .getByRole('button', { name: /^Orders/ })
      .click();
    await waitForCount(list().getByRole('listitem'), 2);
    await page.waitForURL((u) => u.hash.startsWith(`#/endpoints/${orders.id}`));
    const address = new URL(page.url()).hash;
    await page.reload();
    await nav().getByRole('region', { name: 'Receiving URL' }).getByText(orders.url, { exact: true }).waitFor();
    assert.equal(
      await nav()
        .getByRole('button', { name: /^Orders/ })
        .getAttribute('aria-current'),
      'true',
    );
    await waitForCount(list().getByRole('listitem'), 2);
    assert.equal(new URL(page.url()).hash, address);

    const temp = await api('POST', '/api/endpoints', { name: 'Temporary', validationType: 'none' });
    await api('DELETE', `/api/endpoints/${temp.id}`);
    // A page opened afresh on its address, as a bookmark or a reload opens it.
    await page.goto('about:blank');
    await page.goto(`${serve.apiUrl}/#/endpoints/${temp.id}`);
    await nav().locator('.item.selected').filter({ hasText: 'All endpoints' }).waitFor();
    await list().getByText(`/seed/${SEEDED}`, { exact: true }).waitFor({ state: 'attached' });
    assert.equal(new URL(page.url()).hash, '');
    assert.equal(await page.locator('.notice-error').count(), 0, 'no error notice');
    assert.deepEqual(errors, [], 'no script error or failed request in the console');
  });
});
