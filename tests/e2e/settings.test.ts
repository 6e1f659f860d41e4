import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Browser } from '../helpers/chromium.ts';
import type { ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { assertAccessible, SCREENSHOTS, signInLink, startUi, stopUi } from '../helpers/ui-page.ts';

const box = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

describe('the Settings screen in Chromium, against a real `hookscope serve`', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-settings-'));
  });
  after(async () => {
    await stopUi({ browser, serve, dataDir });
  });

  test('change the rate limit and retention, save, reload and see them kept; a bad value shows its error; the theme', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A rejected save is logged by the browser as a failed request (400): the screen shows it, which is the point.
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && !/status of 400/.test(m.text()))
        errors.push(m.text());
    });
    try {
      await page.goto(await signInLink(dataDir));
      await page.getByRole('button', { name: 'New endpoint' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/settings');
      assert.equal(await box(page, 'Rate limit (deliveries per second)').inputValue(), '1000');

      // The ports: read-only, the ones this engine is bound to, with how to change them.
      const ports = page.getByRole('table', { name: 'Ports and how to change them' });
      const apiPort = new URL(serve.apiUrl).port;
      assert.deepEqual(await ports.locator('tbody tr').first().locator('th, td').allTextContents(), [
        'API and UI port',
        apiPort,
        '--api-port',
        'HOOKSCOPE_API_PORT',
        'apiPort',
      ]);

      await box(page, 'Rate limit (deliveries per second)').fill('250');
      await box(page, 'Logs kept per account').fill('3000');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved and applied.').waitFor();
      assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'config.json'), 'utf8')), {
        receiver: { rateLimit: { perSecond: 250 } },
        retention: { maxLogsPerAccount: 3000 },
      });

      await page.reload();
      await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
      await box(page, 'Burst').waitFor();
      assert.equal(await box(page, 'Rate limit (deliveries per second)').inputValue(), '250');
      assert.equal(await box(page, 'Logs kept per account').inputValue(), '3000');

      // A bad value: the engine's sentence next to the field, the file untouched.
      await box(page, 'Burst').fill('0');
      await page.getByRole('button', { name: 'Save' }).click();
      const burstError = page.getByText('Burst must be a whole number of at least 1.');
      await burstError.waitFor();
      assert.equal(await box(page, 'Burst').getAttribute('aria-invalid'), 'true');
      assert.equal(
        await box(page, 'Burst').evaluate((el) => el.getAttribute('aria-describedby')?.split(' ')[0]),
        await burstError.getAttribute('id'),
        'the error describes the box',
      );
      assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'config.json'), 'utf8')).receiver, {
        rateLimit: { perSecond: 250 },
      });
      await page.getByRole('button', { name: 'Discard changes' }).click();
      assert.equal(await box(page, 'Burst').inputValue(), '2000');
      assert.equal(await burstError.count(), 0, 'discarding clears the error with the value');
      await page.getByRole('button', { name: 'Dismiss' }).click();

      // Tall enough that the whole screen (which scrolls inside the page) is in the picture.
      await page.setViewportSize({ width: 1100, height: 1000 });
      for (const theme of ['Light', 'Dark'] as const) {
        await page.getByRole('radio', { name: theme }).check();
        const wanted = theme.toLowerCase();
        for (let i = 0; (await page.locator('html').getAttribute('data-theme')) !== wanted; i++) {
          assert.ok(i < 100, `the page did not turn ${wanted}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        assert.equal(await page.getByLabel('Theme').inputValue(), wanted, 'the top bar agrees');
        await page.screenshot({ path: `${SCREENSHOTS}settings-${wanted}.png`, fullPage: true });
        await assertAccessible(page, `settings (${wanted})`);
      }
      await page.getByRole('radio', { name: 'System' }).check();
      assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
    } finally {
      await page.close();
    }
  });
});
