import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import Stripe from 'stripe';
import { apiCaller } from '../helpers/api-call.ts';
import { launchChromium, type Browser } from '../helpers/chromium.ts';
import { startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';
import { assertAccessible, ownerToken, SCREENSHOTS, signInLink, waitForTexts } from '../helpers/ui-page.ts';

// Removed once the file's tests are done.
const tempDir = tempDirs('hookscope-e2e-list-');

const SEEDED = 450;
const STRIPE_SECRET = 'whsec_e2e_deliveries_list';

describe('the deliveries list in Chromium: pages to the oldest, follow newest, event types', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;
  let token: string;
  let bulkUrl: string;
  let stripeUrl: string;
  let page: Page;
  const errors: string[] = [];

  const api = apiCaller(
    () => serve.apiUrl,
    () => token,
  );
  /** A Stripe event signed as Stripe signs it; answers the new log's id. */
  const stripeEvent = async (subPath: string, type: string): Promise<string> => {
    const payload = JSON.stringify({ id: 'evt_e2e_list', object: 'event', type, data: { object: { amount: 4200 } } });
    const res = await fetch(`${stripeUrl}${subPath}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET }),
      },
      body: payload,
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };

  const list = () => page.getByRole('list', { name: 'Deliveries' });
  const follow = () => page.getByRole('button', { name: 'Follow newest' });
  const count = () => page.getByRole('region', { name: 'Deliveries pane' }).locator('.pane-head .count');
  const openHeading = () => page.getByRole('region', { name: 'Delivery' }).getByRole('heading', { level: 2 });

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    dataDir = await tempDir();
    serve = await startServe(dataDir);
    token = await ownerToken(dataDir);
    bulkUrl = (await api('POST', '/api/endpoints', { name: 'Bulk', validationType: 'none' })).url;
    stripeUrl = (
      await api('POST', '/api/endpoints', { name: 'Stripe', validationType: 'stripe', webhookSecret: STRIPE_SECRET })
    ).url;
    // Through the receiver, oldest first: /order/1 is the 450th row of the list.
    for (let n = 1; n <= SEEDED; n++) {
      const res = await fetch(`${bulkUrl}/order/${n}`, { method: 'POST', body: `{"n":${n}}` });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) errors.push(m.text());
    });
    await page.goto(await signInLink(dataDir));
  });
  after(async () => {
    await browser?.close();
    serve?.child.kill('SIGTERM');
    await serve?.exited;
  });

  test('the first page says how many more there are; scrolling down loads pages to the oldest delivery', async () => {
    await list().getByText(`/order/${SEEDED}`, { exact: true }).waitFor();
    assert.equal(await count().textContent(), `200 of ${SEEDED}`);
    assert.equal(await follow().getAttribute('aria-pressed'), 'true', 'following is on by default');

    await list().hover();
    const oldest = list().getByText('/order/1', { exact: true });
    for (let i = 0; i < 200 && !(await oldest.isVisible()); i++) await page.mouse.wheel(0, 2000);
    await oldest.waitFor();
    assert.equal(await count().textContent(), String(SEEDED), 'every row is loaded');
    assert.equal(await list().locator('.more-row').count(), 0, 'nothing more to load');
    assert.equal(await follow().getAttribute('aria-pressed'), 'false', 'scrolling away from the top paused following');
    const rows = await list()
      .getByRole('listitem')
      .evaluateAll((items) => items.map((i) => i.querySelector('.path')?.textContent));
    assert.equal(rows[rows.length - 1], '/order/1', 'the oldest is the last row');
  });

  test('follow newest: resumed, it jumps to the newest; a live delivery is then opened by itself with its event type', async () => {
    await follow().click();
    assert.equal(await follow().getAttribute('aria-pressed'), 'true');
    await list().getByText(`/order/${SEEDED}`, { exact: true }).waitFor();
    await openHeading()
      .filter({ hasText: `/order/${SEEDED}` })
      .waitFor();

    const id = await stripeEvent('/checkout', 'checkout.session.completed');
    await openHeading().filter({ hasText: '/checkout' }).waitFor();
    await page.waitForURL((u) => u.hash === `#/logs/${id}`);
    const top = list().getByRole('listitem').first();
    const chip = top.locator('.event-type');
    assert.equal(await chip.textContent(), 'checkout.session.completed');
    assert.equal(await chip.getAttribute('title'), 'Event type: checkout.session.completed');
    assert.match((await top.textContent()) ?? '', /^POST\/checkoutVerified \(stripe\)/);
    await page
      .getByRole('region', { name: 'Delivery' })
      .locator('.meta .event-type')
      .filter({ hasText: 'checkout.session.completed' })
      .waitFor();
    assert.equal(await count().textContent(), String(SEEDED + 1));

    for (const theme of ['light', 'dark'] as const) {
      await page.getByLabel('Theme').selectOption(theme);
      await page.screenshot({ path: `${SCREENSHOTS}deliveries-list-${theme}.png` });
      await assertAccessible(page, `deliveries list (${theme})`);
    }
  });

  test('clicking a row pauses following: a new delivery comes on top but does not take over; j/k pause it too', async () => {
    const second = list().getByRole('listitem').nth(1);
    await second.getByRole('button').click();
    assert.equal(await follow().getAttribute('aria-pressed'), 'false');
    await openHeading()
      .filter({ hasText: `/order/${SEEDED}` })
      .waitFor();
    const reading = new URL(page.url()).hash;

    const id = await stripeEvent('/refund', 'charge.refunded');
    await list().getByRole('listitem').first().getByText('/refund').waitFor();
    assert.equal(await list().getByRole('listitem').first().locator('.event-type').textContent(), 'charge.refunded');
    assert.equal(new URL(page.url()).hash, reading, 'the delivery being read stays open');
    await openHeading()
      .filter({ hasText: `/order/${SEEDED}` })
      .waitFor();

    await follow().click();
    await page.waitForURL((u) => u.hash === `#/logs/${id}`);
    await page.keyboard.press('j');
    assert.equal(await follow().getAttribute('aria-pressed'), 'false', 'j is navigation');
    await openHeading().filter({ hasText: '/checkout' }).waitFor();
  });

  test('paused and scrolled down, a new delivery does not move the rows being read', async () => {
    const scroller = page.getByRole('region', { name: 'Deliveries pane' }).locator('.scroller');
    await list().hover();
    await page.mouse.wheel(0, 1040);
    const scrolled = async (): Promise<number> => scroller.evaluate((el) => el.scrollTop);
    // Until the wheel's scroll has settled (away from the top, and the same twice).
    for (let last = -1, now = await scrolled(); now === 0 || now !== last; last = now, now = await scrolled()) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(await follow().getAttribute('aria-pressed'), 'false');
    const before = await scrolled();
    const total = Number(await count().textContent());
    await stripeEvent('/late', 'invoice.paid');
    await count()
      .filter({ hasText: String(total + 1) })
      .waitFor();
    assert.equal(await scrolled(), before + 52, 'scrolled down by the one row added on top');
    assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
  });

  test('a delivery that arrives while the list reloads, and is in the reload’s answer too, is listed once', async () => {
    if ((await follow().getAttribute('aria-pressed')) === 'false') await follow().click();
    // The reload's request waits here until the delivery is stored and shown live: the engine
    // then answers it with that delivery among the rows.
    let asked!: () => void;
    const reloadAsked = new Promise<void>((resolve) => (asked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const LIST = /\/api\/webhooks\/logs\?/;
    await page.route(LIST, async (route) => {
      asked();
      await released;
      await route.continue();
    });
    try {
      await page
        .getByRole('navigation', { name: 'Endpoints' })
        .getByRole('button', { name: /^Stripe/ })
        .click();
      await reloadAsked;
      await stripeEvent('/raced', 'invoice.created');
      await list().getByText('/raced', { exact: true }).waitFor();
      release();
      await waitForTexts(list().getByRole('listitem').locator('.path'), ['/raced', '/late', '/refund', '/checkout']);
      assert.equal(await count().textContent(), '4');
    } finally {
      release();
      await page.unroute(LIST);
    }
    assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
  });
});
