import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Browser } from '../helpers/chromium.ts';
import { runCli, type ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { assertAccessible, SCREENSHOTS, signInLink, startUi, stopUi } from '../helpers/ui-page.ts';

/** A one-time sign-in link for another account: `hookscope open --user NAME --print`. */
async function linkFor(dataDir: string, user: string): Promise<string> {
  const r = await runCli(['open', '--print', '--user', user, '--data-dir', dataDir]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

const account = (page: Page) => page.getByRole('banner').locator('.account');

describe('sessions in Chromium, against a real `hookscope serve`', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-session-'));
  });
  after(async () => {
    await stopUi({ browser, serve, dataDir });
  });

  test("another account's sign-in link asks first, naming both: Stay keeps the first, Switch moves to the other", async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(await signInLink(dataDir));
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      assert.equal(await account(page).innerText(), 'Signed in as local\nSign out');

      // A link for another account, opened in the same tab (only the fragment changes).
      await page.goto(await linkFor(dataDir, 'teammate'));
      const dialog = page.getByRole('dialog', { name: 'Switch accounts?' });
      await dialog.waitFor();
      assert.equal(
        await dialog.locator('#switch-account-text').innerText(),
        'This sign-in link is for the account teammate. You are signed in as local.',
      );
      assert.equal(new URL(page.url()).hash, '', 'the link left the address bar');
      await page.screenshot({ path: `${SCREENSHOTS}switch-account.png` });
      await assertAccessible(page, 'the switch-account question');

      await dialog.getByRole('button', { name: 'Stay as local' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await account(page).innerText(), 'Signed in as local\nSign out');
      await page.reload();
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      assert.equal(await account(page).innerText(), 'Signed in as local\nSign out', 'still local after a reload');

      await page.goto(await linkFor(dataDir, 'teammate'));
      await dialog.getByRole('button', { name: 'Switch to teammate' }).click();
      await account(page).filter({ hasText: 'Signed in as teammate' }).waitFor();
      assert.equal(new URL(page.url()).hash, '');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('Sign out ends the session on the engine: the cookie, replayed, is refused', async () => {
    // A browser with no session yet (the first test left one for the teammate).
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    try {
      await page.goto(await signInLink(dataDir));
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      // What someone who copied the cookie before the sign-out would hold.
      const cookies = await browser.context.cookies(serve.apiUrl);
      assert.deepEqual(
        cookies.map((c) => c.name),
        ['hookscope_session'],
      );
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const replay = () => fetch(`${serve.apiUrl}/api/session`, { headers: { cookie } });
      assert.equal((await replay()).status, 200);

      await account(page).getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('npx hookscope open').first().waitFor();
      const refused = await replay();
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'SESSION_INVALID');
    } finally {
      await page.close();
    }
  });
});
