import assert from 'node:assert/strict';
import Stripe from 'stripe';
import type { Browser } from '../helpers/chromium.ts';
import type { ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer } from '../helpers/target-server.ts';
import {
  captureBothThemes,
  SCREENSHOTS,
  signInLink,
  startUi,
  stopUi,
  waitForCount,
  waitForTexts,
} from '../helpers/ui-page.ts';

const SECRET = 'whsec_e2e_inspector_secret';

describe('the inspector UI in Chromium, against a real `hookscope serve`', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-ui-'));
  });
  after(async () => {
    await stopUi({ browser, serve, dataDir });
  });

  test('the serve banner prints a sign-in link; the UI is served with a strict CSP', async () => {
    assert.match(serve.output(), new RegExp(`Open +${serve.apiUrl}/#/sign-in/[A-Za-z0-9_-]{43}\\n`));
    const res = await fetch(`${serve.apiUrl}/`);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  });

  test('without a session, and with a spent link, the page says to run `npx hookscope open`', async () => {
    const page = await browser.context.newPage();
    try {
      await page.goto(`${serve.apiUrl}/`);
      await page.getByText('npx hookscope open').first().waitFor();
      const link = await signInLink(dataDir);
      // Spend the code elsewhere first: the page must then refuse it.
      const code = link.slice(link.lastIndexOf('/') + 1);
      const spent = await fetch(`${serve.apiUrl}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      assert.equal(spent.status, 200);
      await page.goto(link);
      await page.getByRole('alert').filter({ hasText: 'expired or was already used' }).waitFor();
      assert.equal(new URL(page.url()).hash, '', 'the code left the address bar');
    } finally {
      await page.close();
    }
  });

  test('sign in, create a Stripe endpoint, see a signed and a badly signed delivery arrive live, open each', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    try {
      await page.goto(await signInLink(dataDir));
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      assert.equal(new URL(page.url()).hash, '', 'the sign-in code is gone from the address bar');
      assert.deepEqual(await page.evaluate('Object.keys(window.localStorage)'), [], 'no token in localStorage');
      assert.equal(await page.evaluate('document.cookie'), '', 'the session cookie is HttpOnly');

      await page.getByRole('button', { name: 'New endpoint' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Stripe payments');
      await page.getByLabel('Validation type').selectOption('stripe');
      await page.getByLabel('Secret', { exact: true }).fill(SECRET);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('button', { name: 'Copy URL' }).first().waitFor();
      const url = (await page.locator('.endpoint-url code').first().textContent()) ?? '';
      assert.match(url, /\/webhook\/ep_[a-z0-9]+$/);

      const payload = JSON.stringify({ id: 'evt_e2e_1', type: 'invoice.paid', data: { object: { amount: 4200 } } });
      const good = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
        },
        body: payload,
      });
      assert.equal(good.status, 200);
      const bad = await fetch(`${url}/retry?attempt=2`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }),
        },
        body: payload,
      });
      assert.equal(bad.status, 400);

      const list = page.getByRole('list', { name: 'Deliveries' });
      await list.getByRole('listitem').nth(1).waitFor();
      assert.equal(await list.getByRole('listitem').count(), 2);
      // Newest first: the badly signed one is on top.
      const first = list.getByRole('listitem').first();
      assert.match((await first.textContent()) ?? '', /^POST\/retry\?attempt=2Failed: no_matching_signature74 B/);

      await first.getByRole('button').click();
      await page.getByRole('alert').filter({ hasText: 'Failed: no_matching_signature' }).waitFor();
      await page.getByRole('region', { name: 'Body', exact: true }).getByText('invoice.paid').waitFor();
      await captureBothThemes(page, 'inspector-failed', 'inspector (failed delivery open)');

      // Explain: the proven cause, in words.
      await page.getByRole('button', { name: 'Explain' }).click();
      const explanation = page.getByRole('region', { name: 'Explanation' });
      await explanation.getByText('% confident').first().waitFor();
      assert.match((await explanation.textContent()) ?? '', /secret/i);
      await captureBothThemes(page, 'explain', 'explain');

      await list.getByRole('listitem').nth(1).getByRole('button').click();
      await page.getByText('Verified (stripe)', { exact: true }).last().waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}inspector-verified-light.png` });

      // Replay to a local target, re-signed: the target gets a signature the endpoint's secret verifies now.
      const target = await TargetServer.start(() => ({ status: 202, body: 'queued' }));
      try {
        await page.getByRole('button', { name: 'Replay', exact: true }).click();
        const replay = page.getByRole('region', { name: 'Replay' });
        assert.equal(await replay.getByLabel('Target URL').inputValue(), 'http://localhost:3000');
        await replay.getByLabel('Target URL').fill(target.url);
        assert.equal(await replay.getByRole('checkbox', { name: 'Re-sign' }).isChecked(), true);
        await replay.getByRole('button', { name: 'Send' }).click();
        await replay.getByLabel('Replay result').getByText('202', { exact: true }).waitFor();
        await replay.getByRole('list', { name: 'Replay history' }).getByRole('listitem').first().waitFor();
        assert.equal(target.received.length, 1);
        const sig = target.received[0]!.headers['stripe-signature'] as string;
        assert.doesNotThrow(() =>
          Stripe.webhooks.constructEvent(target.received[0]!.body.toString('utf8'), sig, SECRET),
        );
        await captureBothThemes(page, 'replay', 'replay');
      } finally {
        await target.close();
      }

      // Share: the link opens in another page, then dies when revoked.
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const share = page.getByRole('region', { name: 'Share' });
      assert.equal(await share.getByLabel('Expires in (hours)').inputValue(), '24');
      assert.equal(await share.getByRole('checkbox', { name: 'Redact' }).isChecked(), true);
      await share.getByRole('button', { name: 'Create link' }).click();
      const shareUrl = (await share.locator('.share-url').textContent()) ?? '';
      await captureBothThemes(page, 'share', 'share (link created)');
      assert.match(shareUrl, /\/share\/[A-Za-z0-9_-]{43}$/);
      const other = await browser.context.newPage();
      try {
        const opened = await other.goto(shareUrl);
        assert.equal(opened?.status(), 200);
        await other.getByText('invoice.paid').first().waitFor();
        await share.getByRole('button', { name: 'Revoke' }).click();
        await page.getByText('The share link was revoked').waitFor();
        assert.equal((await other.goto(shareUrl))?.status(), 404);
      } finally {
        await other.close();
      }

      // The Failed chip: the engine is asked again and the failed delivery is the only row left. The
      // rows themselves are checked: a count the list already has would pass before the filter applies.
      const rows = list.getByRole('listitem');
      const failedRow = /^POST\/retry\?attempt=2Failed: no_matching_signature74 B/;
      const verifiedRow = /^POST\/Verified \(stripe\)74 B/;
      await waitForTexts(rows, [failedRow, verifiedRow]);
      await page.getByRole('radio', { name: 'Failed' }).check();
      await waitForTexts(rows, [failedRow]);
      await page.getByLabel('Search deliveries').fill('no-such-text');
      await page.getByText('No delivery matches these filters.').waitFor();
      await page.getByLabel('Search deliveries').fill('');
      await page.getByRole('radio', { name: 'All' }).check();
      await waitForTexts(rows, [failedRow, verifiedRow]);

      // Pin, then delete with confirmation.
      await page.getByRole('button', { name: 'Pin', exact: true }).click();
      await list.getByText('Pinned').waitFor();
      await page.getByRole('button', { name: 'Unpin' }).waitFor();
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await waitForCount(list.getByRole('listitem'), 1);
      await page.getByText('Select a delivery').waitFor();
      await waitForTexts(rows, [failedRow]);
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });

  test('a test delivery in one click; the keyboard; the address follows the open delivery and survives a reload', async () => {
    const page = await browser.context.newPage();
    try {
      await page.goto(await signInLink(dataDir));
      const list = page.getByRole('list', { name: 'Deliveries' });
      await page
        .getByRole('navigation', { name: 'Endpoints' })
        .getByRole('button', { name: 'Stripe payments' })
        .click();
      await page.getByRole('button', { name: 'Send test delivery' }).click();
      await page.getByText('Test delivery sent: the receiver answered 200.').waitFor();
      await list.getByText('Verified (stripe)').first().waitFor();
      const count = await list.getByRole('listitem').count();
      assert.equal(count, 2, 'the one left after the delete, and the test delivery');

      // "Follow newest" (on by default) opened the test delivery as it arrived; j and k move from there.
      // The address names the endpoint chosen too, so a reload keeps both.
      await page.waitForURL(/#\/endpoints\/ep_[0-9a-z]+\/logs\/log_[0-9a-z]+$/);
      const first = new URL(page.url()).hash;
      await page.keyboard.press('j');
      await page.waitForURL((u) => u.hash !== first);
      const second = new URL(page.url()).hash;
      await page.keyboard.press('k');
      await page.waitForURL((u) => u.hash === first);

      await page.keyboard.press('r');
      await page.getByRole('region', { name: 'Replay' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('region', { name: 'Replay' }).waitFor({ state: 'detached' });
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'hidden' });
      await page.keyboard.press('/');
      assert.equal(await page.evaluate("document.activeElement.getAttribute('aria-label')"), 'Search deliveries');

      // A reload on a deep link opens that delivery again.
      await page.goto(`${serve.apiUrl}/${second}`);
      await page.reload();
      await page.getByRole('region', { name: 'Delivery' }).getByRole('heading', { level: 2 }).waitFor();
      assert.equal(new URL(page.url()).hash, second);
      const selected = page.locator('[aria-label="Deliveries"] .row-wrap.selected');
      await selected.waitFor();
      assert.equal(await selected.count(), 1);

      // Tick both deliveries and compare them: JSON bodies give a path-by-path diff.
      const boxes = list.getByRole('checkbox');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByRole('button', { name: 'Compare' }).click();
      const comparison = page.getByRole('region', { name: 'Comparison' });
      await comparison.getByRole('region', { name: 'Headers' }).waitFor();
      const body = comparison.getByRole('region', { name: 'Body difference' });
      assert.match((await body.textContent()) ?? '', /\$\.id/);
      await captureBothThemes(page, 'compare', 'compare');
      await page.getByRole('button', { name: 'Close' }).click();

      // The endpoint's settings: rename, switch off (deliveries then get 410), and a secret Stripe issues is not regenerated here.
      await page
        .getByRole('navigation', { name: 'Endpoints' })
        .getByRole('button', { name: 'Stripe payments' })
        .click();
      await page.getByText('Endpoint settings', { exact: true }).click();
      await captureBothThemes(page, 'endpoint-settings', 'endpoint settings');
      await page.getByLabel('Endpoint name').fill('Stripe (test mode)');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: /Stripe \(test mode\)/ }).waitFor();
      await page.getByRole('switch', { name: 'Active' }).uncheck();
      await page.getByRole('button', { name: /Stripe \(test mode\).*inactive/ }).waitFor();
      const url = (await page.locator('.endpoint-url code').first().textContent()) ?? '';
      assert.equal((await fetch(url, { method: 'POST', body: '{}' })).status, 410);
      // Stripe issues this secret: it is set under Signing secret (tests/e2e/endpoint-fix.test.ts), never regenerated here.
      await page.locator('summary', { hasText: 'Signing secret' }).click();
      await page.getByRole('button', { name: 'Save secret' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Regenerate secret' }).count(), 0);

      // A second endpoint with one delivery; a new endpoint is chosen at once.
      await page.getByRole('button', { name: 'New endpoint' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Other');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page
        .getByRole('button', { name: /^Other/, pressed: undefined })
        .and(page.locator('[aria-current="true"]'))
        .waitFor();
      const otherUrl = (await page.locator('.endpoint-url code').first().textContent()) ?? '';
      assert.equal((await fetch(otherUrl, { method: 'POST', body: 'other' })).status, 200);
      await waitForCount(list.getByRole('listitem'), 1);

      // Deleting the Stripe one takes its deliveries; the list, filtered by it, goes back to all endpoints.
      await page.getByRole('button', { name: /Stripe \(test mode\)/ }).click();
      await page.getByText('Endpoint settings', { exact: true }).click();
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByRole('button', { name: /Stripe \(test mode\)/ }).waitFor({ state: 'detached' });
      await waitForCount(list.getByRole('listitem'), 1);
      assert.match((await list.getByRole('listitem').first().textContent()) ?? '', /^POST\/Not verified/);
    } finally {
      await page.close();
    }
  });
});
