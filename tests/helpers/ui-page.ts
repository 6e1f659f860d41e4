import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { launchChromium, type Browser } from './chromium.ts';
import { runCli, startServe, type ServeProcess } from './cli-process.ts';
import { makeTempDir } from './temp-dir.ts';

/**
 * Where the e2e tests write their screenshots. The committed ones under
 * tests/e2e/screenshots/ (shown in the README) change only on purpose, with
 * UPDATE_SCREENSHOTS=1; every other run writes them to .tmp/screenshots/
 * (ignored) to be looked at, so a test run never leaves the tree dirty.
 */
export const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? new URL('../e2e/screenshots/', import.meta.url).pathname
    : new URL('../../.tmp/screenshots/', import.meta.url).pathname;

/** A fresh one-time sign-in link, as a user gets it: `hookscope open --print`. */
export async function signInLink(dataDir: string): Promise<string> {
  const r = await runCli(['open', '--print', '--data-dir', dataDir]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `--print prints the link alone: ${r.stdout}`);
  return lines[0]!;
}

/** A token for the owner account, as a user mints one: `hookscope token`. */
export async function ownerToken(dataDir: string): Promise<string> {
  const r = await runCli(['token', '--data-dir', dataDir]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

/**
 * Waits until the locator matches exactly n elements. (waitForFunction would
 * evaluate a string in the page, which the UI's CSP rightly refuses.)
 */
export async function waitForCount(locator: Locator, n: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await locator.count()) !== n) {
    if (Date.now() > deadline) throw new Error(`expected ${n} elements, found ${await locator.count()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until the locator's elements hold exactly these texts, in order (a string
 * is the whole text, a RegExp tests it); fails with the texts shown. For a list
 * that changes in place: a count it already has would pass before the change.
 */
export async function waitForTexts(locator: Locator, expected: (string | RegExp)[], timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const matches = (texts: string[]): boolean =>
    texts.length === expected.length &&
    texts.every((t, i) => {
      const e = expected[i]!;
      return typeof e === 'string' ? t === e : e.test(t);
    });
  let texts = await locator.allTextContents();
  while (!matches(texts)) {
    if (Date.now() > deadline) assert.fail(`expected ${String(expected)}, shown: ${JSON.stringify(texts)}`);
    await new Promise((r) => setTimeout(r, 50));
    texts = await locator.allTextContents();
  }
}

/** No serious or critical axe violation on the page as it is now. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `${what}: axe found serious or critical violations`,
  );
}

/**
 * Screenshots the page as it is in the light and then the dark theme (through
 * the top bar's Theme control), with the axe check in each; leaves it light.
 */
export async function captureBothThemes(page: Page, screen: string, what: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.getByLabel('Theme').selectOption(theme);
    await page.screenshot({ path: `${SCREENSHOTS}${screen}-${theme}.png` });
    await assertAccessible(page, `${what} (${theme})`);
  }
  await page.getByLabel('Theme').selectOption('light');
}

export interface UiSession {
  browser: Browser;
  serve: ServeProcess;
  dataDir: string;
}

/** What each UI test file starts with: a real `hookscope serve` on a fresh data directory, and Chromium. */
export async function startUi(tempPrefix: string): Promise<UiSession> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const dataDir = await makeTempDir(tempPrefix);
  const serve = await startServe(dataDir);
  const browser = await launchChromium();
  return { browser, serve, dataDir };
}

/** Closes what startUi started and removes its data directory (any may be missing when start-up failed half-way). */
export async function stopUi(ui: Partial<UiSession>): Promise<void> {
  await ui.browser?.close();
  ui.serve?.child.kill('SIGTERM');
  await ui.serve?.exited;
  if (ui.dataDir) await rm(ui.dataDir, { recursive: true, force: true });
}
