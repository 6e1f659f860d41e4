import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { apiCaller } from '../helpers/api-call.ts';
import type { Browser } from '../helpers/chromium.ts';
import { type ServeProcess } from '../helpers/cli-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { captureBothThemes, ownerToken, signInLink, startUi, stopUi, waitForTexts } from '../helpers/ui-page.ts';

/**
 * Issue 22, point 3: the keyboard in Chromium against a real `hookscope serve`,
 * at the 1024×640 viewport. One page goes through the steps in order, as a user
 * would: three deliveries (/first oldest, /third newest), /second open.
 */
describe('the keyboard in Chromium: panels take the cursor, typing is never a shortcut, Esc, arrows, one tab stop', () => {
  let browser: Browser;
  let serve: ServeProcess;
  let dataDir: string;
  let token: string;
  let target: TargetServer;
  let page: Page;
  const ids: Record<string, string> = {};
  const errors: string[] = [];

  const api = apiCaller(
    () => serve.apiUrl,
    () => token,
  );
  const list = () => page.getByRole('list', { name: 'Deliveries' });
  const row = (path: string) => list().getByRole('listitem').filter({ hasText: path }).locator('button.row');
  const detail = () => page.getByRole('region', { name: 'Delivery' });
  const heading = () => detail().getByRole('heading', { level: 2 });
  const search = () => page.getByRole('searchbox', { name: 'Search deliveries' });
  const isFocused = async (l: Locator): Promise<boolean> => (await l.and(page.locator(':focus')).count()) === 1;
  const holdsFocus = async (l: Locator): Promise<boolean> => (await l.locator(':focus').count()) === 1;
  const tabIndexes = async (l: Locator): Promise<(string | null)[]> =>
    Promise.all((await l.all()).map((one) => one.getAttribute('tabindex')));
  /** Waits until the delivery at this sub-path is the open one, in the address and the detail. */
  const openIs = async (path: string): Promise<void> => {
    await page.waitForURL((u) => u.hash.endsWith(`/logs/${ids[path]}`));
    await heading()
      .filter({ hasText: `POST ${path}` })
      .waitFor();
  };

  before(async () => {
    ({ browser, serve, dataDir } = await startUi('hookscope-e2e-keyboard-'));
    token = await ownerToken(dataDir);
    const endpoint = await api('POST', '/api/endpoints', { name: 'Keys', validationType: 'none' });
    for (const path of ['/first', '/second', '/third']) {
      const res = await fetch(`${endpoint.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path, items: [1, 2, 3] }),
      });
      assert.equal(res.status, 200);
      ids[path] = ((await res.json()) as { data: { id: string } }).data.id;
    }
    target = await TargetServer.start(() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' }));
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1024, height: 640 });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(await signInLink(dataDir));
    await waitForTexts(list().locator('.path'), ['/third', '/second', '/first']);
    await row('/second').click();
    await openIs('/second');
  });
  after(async () => {
    await page?.close();
    await target?.close();
    await stopUi({ browser, serve, dataDir });
  });

  test('r puts the cursor in the target URL; a URL with p, j, k and / is typed there and nothing else happens; Enter sends; Esc goes back to the row', async () => {
    await page.keyboard.press('r');
    const replay = page.getByRole('region', { name: 'Replay', exact: true });
    const box = replay.getByLabel('Target URL');
    await box.waitFor();
    assert.equal(await isFocused(box), true, 'the cursor is in the target URL');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    const url = `${target.url}/pj/k`;
    await page.keyboard.type(url);

    assert.equal(await box.inputValue(), url);
    assert.ok(new URL(page.url()).hash.endsWith(`/logs/${ids['/second']}`), 'the same delivery is open');
    assert.equal(await heading().textContent(), 'POST /second');
    assert.equal(await row('/second').getAttribute('aria-current'), 'true');
    assert.equal(await list().getByText('Pinned').count(), 0, 'no row is pinned');
    assert.equal(await detail().getByRole('button', { name: 'Pin', exact: true }).count(), 1, 'not pinned');
    assert.equal(await search().inputValue(), '');
    assert.equal(await isFocused(search()), false);
    assert.equal(await isFocused(box), true);

    await page.keyboard.press('Enter');
    const result = replay.getByRole('group', { name: 'Replay result' });
    await result.getByText('200', { exact: true }).waitFor();
    assert.equal(target.received.at(-1)?.url, '/pj/k');
    await captureBothThemes(page, 'keyboard-replay', 'replay sent with Enter from the keyboard');

    // The theme control took focus for the screenshots; the user's cursor was in the box.
    await box.focus();
    await page.keyboard.press('Escape');
    await replay.waitFor({ state: 'detached' });
    assert.equal(await isFocused(row('/second')), true, 'focus is back on the open row');
  });

  test('e and s put the cursor in their first field', async () => {
    await page.keyboard.press('e');
    const edit = page.getByRole('region', { name: 'Edit and replay' });
    await edit.waitFor();
    assert.equal(await isFocused(edit.getByLabel('Target URL')), true);
    // Enter in a multi-line box is a new line (a send would have taken the key).
    await edit.getByLabel('Request body').focus();
    const before = target.received.length;
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    assert.match(await edit.getByLabel('Request body').inputValue(), /\n$/);
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
    assert.equal(await isFocused(row('/second')), true);
    assert.equal(target.received.length, before);

    await page.keyboard.press('s');
    const share = page.getByRole('region', { name: 'Share' });
    await share.waitFor();
    assert.equal(await isFocused(share.getByLabel('Expires in (hours)')), true);
    await page.keyboard.press('Escape');
    await share.waitFor({ state: 'detached' });
    assert.equal(await isFocused(row('/second')), true);
  });

  test('ArrowDown and ArrowUp move the open delivery, focus moving with it', async () => {
    await page.keyboard.press('ArrowDown');
    await openIs('/first');
    assert.equal(await isFocused(row('/first')), true);
    await page.keyboard.press('ArrowUp');
    await openIs('/second');
    await page.keyboard.press('ArrowUp');
    await openIs('/third');
    assert.equal(await isFocused(row('/third')), true);
    await page.keyboard.press('j');
    await openIs('/second');
    assert.equal(await isFocused(row('/second')), true);
  });

  test('the list is one tab stop: Tab from the open row reaches the detail pane in one press, Shift+Tab comes back', async () => {
    assert.equal(await isFocused(row('/second')), true);
    await page.keyboard.press('Tab');
    assert.equal(await holdsFocus(detail()), true, 'one Tab reaches the detail pane');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await isFocused(row('/second')), true);
    // Only the open row is a tab stop; the tick boxes (their names kept) are none.
    assert.deepEqual(await tabIndexes(list().locator('button.row')), ['-1', '0', '-1']);
    const boxes = list().getByRole('checkbox');
    assert.deepEqual(await tabIndexes(boxes), ['-1', '-1', '-1']);
    assert.deepEqual(
      await Promise.all((await boxes.all()).map((b) => b.getAttribute('aria-label'))),
      ['/third', '/second', '/first'].map((p) => `Select POST ${p} (${ids[p]})`),
    );
  });

  test('Space ticks the row with focus, without opening it', async () => {
    // Focus on a row other than the open one (as after a click on its tick box).
    await row('/first').focus();
    await page.keyboard.press(' ');
    const box = list().getByRole('checkbox', { name: `Select POST /first (${ids['/first']})` });
    assert.equal(await box.isChecked(), true);
    await page.keyboard.press(' ');
    assert.equal(await box.isChecked(), false);
    // /second is still the open one: k from it opens /third (from /first it would open /second).
    await page.keyboard.press('k');
    await openIs('/third');
    await page.keyboard.press('j');
    await openIs('/second');
  });

  test('Esc in search goes back to the list and keeps the search', async () => {
    await page.keyboard.press('/');
    assert.equal(await isFocused(search()), true);
    await page.keyboard.type('second');
    await page.keyboard.press('Escape');
    assert.equal(await isFocused(row('/second')), true);
    assert.equal(await search().inputValue(), 'second');
    await waitForTexts(list().locator('.path'), ['/second']);
    assert.equal(await isFocused(row('/second')), true, 'the row keeps focus when the search applies');
    await search().fill('');
    await waitForTexts(list().locator('.path'), ['/third', '/second', '/first']);
  });

  test('the shortcuts dialog lists the keys as they are', async () => {
    await row('/second').focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    assert.equal(await dialog.locator('tr').first().locator('th').textContent(), 'j or ↓');
    await captureBothThemes(page, 'keyboard-shortcuts', 'the shortcuts dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.deepEqual(errors, [], 'no script error or CSP violation in the console');
  });
});
