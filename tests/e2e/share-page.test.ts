import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { ManualClock } from '../../server/support/clock.ts';
import { launchChromium, type Browser } from '../helpers/chromium.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { SCREENSHOTS } from '../helpers/ui-page.ts';

/** What an attacker would send to a webhook URL, hoping a teammate opens the share link. */
const HOSTILE_BODY = [
  '<script>alert(1)</script>',
  '<img src=x onerror="window.__pwned=1;alert(2)">',
  '<script>window.__pwned=3</script>',
  '</pre><h1>fake heading</h1>',
].join('\n');

describe('the share page in Chromium', () => {
  let browser: Browser;
  let t: TestEngine;
  const clock = new ManualClock(Date.now());

  before(async () => {
    browser = await launchChromium();
    t = await startTestEngine({}, { clock });
  });
  after(async () => {
    await t?.stop();
    await browser?.close();
  });

  /** A delivery of its own to a fresh endpoint, shared; answers the link. */
  const sharedDelivery = async (
    name: string,
    share: Record<string, unknown> = {},
  ): Promise<{ logId: string; url: string }> => {
    const ep = await t.endpoint({ name, validationType: 'none' });
    const d = await t.deliver(`/webhook/${ep}/hooks?from=<i>q</i>`, {
      body: HOSTILE_BODY,
      headers: { 'content-type': 'text/html', 'x-note': '<b>not bold</b>' },
    });
    assert.equal(d.status, 200);
    const logId = d.body.data.id as string;
    const s = await t.api('POST', `/api/webhooks/${logId}/share`, { body: share });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    return { logId, url: s.body.data.url as string };
  };

  test('shows a hostile body as text: no script runs, no dialog opens, nothing else is loaded', async () => {
    const { url } = await sharedDelivery('hostile');
    const page = await browser.context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    try {
      const res = await page.goto(url);
      assert.equal(res?.status(), 200);
      await page.waitForLoadState('load');

      assert.equal(await page.locator('pre').innerText(), HOSTILE_BODY, 'the body is shown literally');
      assert.equal(await page.locator('h1').count(), 1, 'the injected heading is text, not an element');
      assert.equal(await page.locator('h1').innerText(), 'POST /hooks');
      assert.equal(await page.getByText('<b>not bold</b>', { exact: true }).count(), 1, 'header values are text too');
      assert.equal(await page.getByText('<i>q</i>', { exact: true }).count(), 1, 'so are query values');
      assert.equal(await page.evaluate("document.querySelectorAll('script, img, iframe, object, embed').length"), 0);
      assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined', 'no script ran');
      assert.deepEqual(dialogs, [], 'no dialog fired');
      assert.deepEqual(requested, [url], 'the page loads nothing but itself');

      await mkdir(SCREENSHOTS, { recursive: true });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: `${SCREENSHOTS}share-page-light.png`, fullPage: true });
      // The page follows the system theme (prefers-color-scheme) with its one style block.
      await page.emulateMedia({ colorScheme: 'dark' });
      assert.equal(await page.evaluate('getComputedStyle(document.body).backgroundColor'), 'rgb(22, 26, 34)');
      await page.screenshot({ path: `${SCREENSHOTS}share-page-dark.png`, fullPage: true });
    } finally {
      await page.close();
    }
  });

  test('a revoked link and an expired one show their own pages, without the body', async () => {
    const revoked = await sharedDelivery('revoked');
    assert.equal((await t.api('DELETE', `/api/webhooks/${revoked.logId}/share`)).status, 200);
    const expiring = await sharedDelivery('expiring', { expiresInHours: 1 });
    clock.advance(61 * 60 * 1000);

    const page = await browser.context.newPage();
    try {
      const gone = await page.goto(revoked.url);
      assert.equal(gone?.status(), 404);
      assert.equal(await page.locator('h1').innerText(), 'Share link not found');
      assert.equal(await page.locator('p').innerText(), 'This share link does not exist or was revoked.');
      assert.equal((await page.content()).includes('alert'), false);

      const expired = await page.goto(expiring.url);
      assert.equal(expired?.status(), 410);
      assert.equal(await page.locator('h1').innerText(), 'Share link expired');
      assert.match(
        await page.locator('p').innerText(),
        /^This share link expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\.$/,
      );
      assert.equal((await page.content()).includes('alert'), false);
    } finally {
      await page.close();
    }
  });
});
