import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import Stripe from 'stripe';
import type { Browser } from '../helpers/chromium.ts';
import type { ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import {
  assertAccessible,
  captureBothThemes,
  signInLink,
  startUi,
  stopUi,
  waitForCount,
  waitForTexts,
} from '../helpers/ui-page.ts';

const RIGHT = 'whsec_e2e_endpoint_fix_right';
const WRONG = 'whsec_e2e_endpoint_fix_typo';

/** A delivery as Stripe sends it, signed with `secret`: the status the sender got. */
async function stripeSends(url: string, id: string, secret: string): Promise<number> {
  const payload = JSON.stringify({ id, type: 'invoice.paid', data: { object: { amount: 4200 } } });
  const r = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
    body: payload,
  });
  await r.arrayBuffer();
  return r.status;
}

describe('fixing an endpoint in place, in Chromium, against a real `hookscope serve`', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-endpoint-fix-'));
  });
  after(async () => {
    await stopUi({ browser, serve, dataDir });
  });

  test('a Stripe secret entered wrong is fixed on the same URL; the forward URL edited and cleared; the New endpoint dialog says one thing once; the tunnel line', async () => {
    const page: Page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A refused create or save is logged by the browser as a failed request (400): the form says it, which is the point.
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && !/status of 400/.test(m.text()))
        errors.push(m.text());
    });
    const errorNotices = page.locator('.notice-error');
    try {
      await page.goto(await signInLink(dataDir));
      const nav = page.getByRole('navigation', { name: 'Endpoints' });
      await nav.getByRole('button', { name: 'New endpoint' }).waitFor();
      // The tunnel is off: the line under the top bar says what that means for senders.
      await page.getByText('Tunnel off: internet senders cannot reach local URLs', { exact: true }).waitFor();

      // The New endpoint form in a dialog; a bad input gets one sentence of the form's own, and no notice.
      await nav.getByRole('button', { name: 'New endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'New endpoint' });
      await dialog.waitFor();
      await dialog.getByLabel('Validation type').selectOption('stripe');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      const nameError = page.getByText('Give the endpoint a name.', { exact: true });
      await nameError.waitFor();
      assert.equal(await nameError.count(), 1, 'said once');
      const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      assert.equal(
        await name.evaluate((el) => el.getAttribute('aria-describedby')?.split(' ')[0]),
        await nameError.getAttribute('id'),
        'the sentence describes the box',
      );
      assert.ok(await name.evaluate((el) => el === el.ownerDocument.activeElement), 'the cursor is in the box to fix');
      assert.deepEqual(await errorNotices.allTextContents(), [], 'no notice says it again');
      assert.doesNotMatch((await dialog.textContent()) ?? '', /Invalid request body|VALIDATION_ERROR|"name"/);
      await page.setViewportSize({ width: 1024, height: 640 });
      await captureBothThemes(page, 'new-endpoint-dialog', 'the New endpoint dialog with a refusal (1024×640)');
      await page.setViewportSize({ width: 1100, height: 900 });

      // Created with a typo in the secret: the dialog closes, the endpoint is chosen, and no error is left.
      await name.fill('Stripe payments');
      await dialog.getByRole('textbox', { name: 'Secret', exact: true }).fill(WRONG);
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      const receiving = nav.getByRole('region', { name: 'Receiving URL' });
      await receiving.waitFor();
      assert.deepEqual(await errorNotices.allTextContents(), [], 'no error notice after the endpoint was created');
      assert.equal(await nameError.count(), 0);
      const url = (await receiving.locator('code').first().textContent()) ?? '';
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/webhook\/ep_[a-z0-9]+$/);
      // The URL shown is local while the tunnel is off: the pane warns beside it.
      await receiving
        .getByText('Internet senders cannot reach this URL: it is local while the tunnel is off.', { exact: true })
        .waitFor();
      await page.setViewportSize({ width: 1024, height: 640 });
      await captureBothThemes(page, 'endpoint-unreachable', 'a local URL with its warning (1024×640)');
      await page.setViewportSize({ width: 1100, height: 900 });

      // Stripe signs with the real secret: the typo fails it.
      const list = page.getByRole('list', { name: 'Deliveries' });
      assert.equal(await stripeSends(url, 'evt_before_fix', RIGHT), 400);
      await waitForTexts(list.getByRole('listitem'), [/Failed: no_matching_signature/]);

      // Fix it in place: Signing secret, Save secret. Regenerate is not offered: Stripe issues this secret.
      await nav.getByText('Endpoint settings', { exact: true }).click();
      await nav.locator('summary', { hasText: 'Signing secret' }).click();
      const secretBox = nav.getByRole('textbox', { name: 'Signing secret', exact: true });
      assert.equal(await secretBox.getAttribute('type'), 'password');
      assert.equal(await nav.getByRole('button', { name: 'Regenerate secret' }).count(), 0);
      await secretBox.fill(RIGHT);
      await nav.getByRole('button', { name: 'Save secret', exact: true }).click();
      const saved = nav.getByRole('status').filter({ hasText: 'Secret saved' });
      await saved.waitFor();
      assert.match(
        (await saved.textContent()) ?? '',
        /^Secret saved; the URL stays the same\. The previous secret still verifies until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.$/,
      );
      assert.equal(await secretBox.inputValue(), '', 'the secret is not shown back');
      assert.equal(await page.getByText(RIGHT).count(), 0);
      assert.equal((await receiving.locator('code').first().textContent()) ?? '', url, 'the URL stays the same');

      // The next delivery Stripe signs, to the same URL: verified.
      assert.equal(await stripeSends(url, 'evt_after_fix', RIGHT), 200);
      await waitForTexts(list.getByRole('listitem'), [/Verified \(stripe\)/, /Failed: no_matching_signature/]);

      // The forward URL: refused in words under its box, then set, then cleared.
      const forward = nav.getByRole('textbox', { name: 'Forward URL', exact: true });
      const saveDetails = nav.getByRole('button', { name: 'Save', exact: true });
      await forward.fill('localhost:3000/webhooks');
      await saveDetails.click();
      const forwardError = nav.getByText(
        'Enter a full address starting with http:// or https://, such as http://localhost:3000/webhooks.',
        { exact: true },
      );
      await forwardError.waitFor();
      assert.equal(await forward.getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await errorNotices.allTextContents(), []);
      await forward.fill('http://localhost:3000/webhooks');
      await saveDetails.click();
      await nav
        .getByText('Forwarding every accepted delivery to http://localhost:3000/webhooks. Empty the box to stop.', {
          exact: true,
        })
        .waitFor();
      assert.equal(await forwardError.count(), 0);
      assert.equal(await forward.getAttribute('aria-invalid'), null);

      await page.setViewportSize({ width: 1024, height: 640 });
      await nav.getByRole('button', { name: 'Save secret', exact: true }).scrollIntoViewIfNeeded();
      await captureBothThemes(page, 'endpoint-fix', 'endpoint settings after the secret was fixed (1024×640)');
      await page.setViewportSize({ width: 1100, height: 900 });

      await forward.fill('');
      await saveDetails.click();
      await nav.getByText(/^Not forwarding\./).waitFor();
      assert.equal(await forward.inputValue(), '');
      // After a reload the engine's own values: not forwarding, the same URL.
      await page.reload();
      await nav.getByRole('button', { name: /^Stripe payments/ }).click();
      await nav.getByText('Endpoint settings', { exact: true }).click();
      await nav.getByText(/^Not forwarding\./).waitFor();
      assert.equal(
        (await nav.getByRole('region', { name: 'Receiving URL' }).locator('code').first().textContent()) ?? '',
        url,
      );
      await waitForCount(list.getByRole('listitem'), 2);
      await assertAccessible(page, 'endpoint settings after a reload');
      assert.deepEqual(await errorNotices.allTextContents(), []);
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });
});
