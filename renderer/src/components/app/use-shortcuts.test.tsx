import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ApiClient } from '../../../../server/api-client/api-client.ts';
import { createAppStores, StoresContext, useStores, type AppStores } from '../../stores/app-stores.ts';
import { startEngineProcess, type EngineProcess } from '../../test-engine-process.ts';
import { memoryStorage } from '../../test-engine.ts';
import { DeliveriesPane } from '../deliveries/deliveries-pane.tsx';
import { DetailPane } from '../detail/detail-pane.tsx';
import { useShortcuts } from './use-shortcuts.ts';

function Keys() {
  useShortcuts(useStores());
  return null;
}

/** A key pressed where focus is, as a keyboard sends it; false when something took it (preventDefault). */
const press = (key: string, init: Partial<KeyboardEventInit> = {}): boolean =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });

/** Typing: each key goes where focus is, and lands in a text box unless a handler took it. */
function type(text: string): void {
  for (const ch of text) {
    const el = document.activeElement;
    if (press(ch) && el instanceof HTMLInputElement) fireEvent.change(el, { target: { value: el.value + ch } });
  }
}

const focused = (): Element | null => document.activeElement;
const list = () => screen.getByRole('list', { name: 'Deliveries' });
/** The row button of the delivery at this sub-path. */
const row = (path: string): HTMLElement =>
  within(list())
    .getAllByRole('button')
    .find((b) => b.querySelector('.path')?.textContent === path)!;

/**
 * The inspector's keyboard over a real engine: the list, the detail and the
 * shortcuts as the inspector wires them, three deliveries (/c newest, /a oldest).
 */
describe('the keyboard', () => {
  let engine: EngineProcess;
  let client: ApiClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    engine = await startEngineProcess();
    client = engine.client;
    const { id } = await client.post('/api/endpoints', { body: { name: 'keys', validationType: 'none' } });
    for (const path of ['/a', '/b', '/c']) {
      const r = await fetch(`${engine.receiverUrl}/webhook/${id}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"n":[1,2,3]}',
      });
      ids[path] = ((await r.json()) as { data: { id: string } }).data.id;
    }
  }, 60_000);
  afterAll(async () => {
    await engine?.stop();
  });

  // jsdom lays nothing out: the list's scroller is given a 400 px high box, rows 20 px high.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(20);
  });
  afterEach(cleanup);

  /** The list and the detail, with /b open and focus on the page. */
  async function show(open: string | null = '/b'): Promise<AppStores> {
    const stores = createAppStores(client, memoryStorage());
    await stores.deliveries.getState().load();
    stores.selection.getState().setFollowing(false);
    render(
      <StoresContext.Provider value={stores}>
        <Keys />
        <DeliveriesPane />
        <DetailPane />
        <input aria-label="Elsewhere" />
      </StoresContext.Provider>,
    );
    if (open !== null) {
      await act(() => stores.selection.getState().select(ids[open]!));
      await screen.findByRole('heading', { level: 2, name: `POST ${open}` });
    }
    return stores;
  }

  test('r puts the cursor in the target URL: a URL with p, j, k and / in it is typed there and does nothing else', async () => {
    const stores = await show();
    const pin = vi.spyOn(stores.deliveries.getState(), 'pin');
    press('r');
    const replay = screen.getByRole('region', { name: 'Replay' });
    const target = within(replay).getByLabelText<HTMLInputElement>('Target URL');
    expect(focused()).toBe(target);
    fireEvent.change(target, { target: { value: '' } });
    type('http://localhost:3000/pj/k');
    expect(target.value).toBe('http://localhost:3000/pj/k');
    expect(focused()).toBe(target);
    expect(stores.selection.getState().selectedId).toBe(ids['/b']);
    expect(pin).not.toHaveBeenCalled();
    const search = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search deliveries' });
    expect(search.value).toBe('');
    expect(stores.ui.getState().panel).toBe('replay');
  });

  test('while the engine is stopped, r, e, s, x and p do nothing, as their buttons are disabled; once back they act', async () => {
    const stores = await show();
    const pin = vi.spyOn(stores.deliveries.getState(), 'pin').mockResolvedValue();
    act(() => stores.live.setState({ state: 'stopped' }));
    for (const key of ['r', 'e', 's', 'x', 'p']) {
      press(key);
      expect(stores.ui.getState().panel, key).toBe('none');
    }
    expect(pin).not.toHaveBeenCalled();
    expect(stores.notices.getState().notices).toEqual([]);
    act(() => stores.live.setState({ state: 'live' }));
    press('p');
    expect(pin).toHaveBeenCalledWith(ids['/b'], true);
    press('s');
    expect(stores.ui.getState().panel).toBe('share');
  });

  test('Esc in the panel closes it and gives focus back to the open row; e and s focus their first field', async () => {
    const stores = await show();
    press('r');
    press('Escape');
    expect(screen.queryByRole('region', { name: 'Replay' })).toBeNull();
    expect(focused()).toBe(row('/b'));

    press('e');
    const edit = screen.getByRole('region', { name: 'Edit and replay' });
    expect(focused()).toBe(within(edit).getByLabelText('Target URL'));
    // Esc in a multi-line box of the panel closes it too.
    within(edit).getByLabelText('Headers').focus();
    press('Escape');
    expect(screen.queryByRole('region', { name: 'Edit and replay' })).toBeNull();
    expect(focused()).toBe(row('/b'));

    press('s');
    const share = screen.getByRole('region', { name: 'Share' });
    expect(focused()).toBe(within(share).getByLabelText('Expires in (hours)'));
    expect(stores.ui.getState().focusRequest).toBe(null);
  });

  test('Esc in a field outside the panel leaves the panel open; in the detail pane it goes back to the list', async () => {
    await show();
    press('r');
    screen.getByLabelText('Elsewhere').focus();
    press('Escape');
    expect(screen.getByRole('region', { name: 'Replay' })).toBeInTheDocument();
    expect(focused()).toBe(screen.getByLabelText('Elsewhere'));

    screen.getByRole('button', { name: 'Copy as cURL' }).focus();
    press('Escape');
    expect(screen.queryByRole('region', { name: 'Replay' })).toBeNull();
    expect(focused()).toBe(row('/b'));
  });

  test('the panel drawn again for the next delivery (j from the list) leaves focus on the list', async () => {
    const stores = await show();
    press('r');
    row('/b').focus();
    press('j');
    await screen.findByRole('heading', { level: 2, name: 'POST /a' });
    expect(screen.getByRole('region', { name: 'Replay' })).toBeInTheDocument();
    expect(stores.selection.getState().selectedId).toBe(ids['/a']);
    expect(focused()).toBe(row('/a'));
  });

  test('ArrowDown and ArrowUp move like j and k; focus on a row moves with the open delivery', async () => {
    const stores = await show();
    row('/b').focus();
    expect(press('ArrowDown')).toBe(false);
    expect(stores.selection.getState().selectedId).toBe(ids['/a']);
    expect(focused()).toBe(row('/a'));
    press('ArrowUp');
    press('ArrowUp');
    expect(stores.selection.getState().selectedId).toBe(ids['/c']);
    expect(focused()).toBe(row('/c'));
    // On the page too; focus stays on the page.
    row('/c').blur();
    press('ArrowDown');
    expect(stores.selection.getState().selectedId).toBe(ids['/b']);
    expect(focused()).toBe(document.body);
  });

  test('the arrows stay with a control that has its own (a button, the JSON tree)', async () => {
    const stores = await show();
    screen.getByRole('button', { name: 'Copy as cURL' }).focus();
    expect(press('ArrowDown')).toBe(true);
    const item = within(screen.getByRole('tree', { name: 'JSON tree' })).getAllByRole('treeitem')[0]!;
    item.focus();
    press('ArrowDown');
    press('ArrowUp');
    expect(stores.selection.getState().selectedId).toBe(ids['/b']);
    // j is still a shortcut on a button.
    screen.getByRole('button', { name: 'Copy as cURL' }).focus();
    press('j');
    expect(stores.selection.getState().selectedId).toBe(ids['/a']);
  });

  test('the list is one tab stop: the open row (or the first), never the tick boxes, which keep their names', async () => {
    const stores = await show(null);
    const stops = () =>
      within(list())
        .queryAllByRole('button')
        .filter((b) => b.tabIndex === 0)
        .map((b) => b.querySelector('.path')?.textContent);
    expect(stops()).toEqual(['/c']);
    await act(() => stores.selection.getState().select(ids['/b']!));
    expect(stops()).toEqual(['/b']);
    const boxes = within(list()).getAllByRole('checkbox');
    expect(boxes.map((b) => [b.getAttribute('aria-label'), b.tabIndex])).toEqual(
      ['/c', '/b', '/a'].map((p) => [`Select POST ${p} (${ids[p]})`, -1]),
    );
  });

  test('Space on a row ticks it, Shift+Space a range; Enter on a row opens it and goes to its detail', async () => {
    const stores = await show();
    row('/c').focus();
    expect(press(' ')).toBe(false);
    expect(stores.deliveries.getState().checked).toEqual([ids['/c']]);
    row('/a').focus();
    press(' ', { shiftKey: true });
    expect(stores.deliveries.getState().checked).toEqual([ids['/c'], ids['/b'], ids['/a']]);
    expect(stores.selection.getState().selectedId).toBe(ids['/b']);

    row('/b').focus();
    expect(press('Enter')).toBe(false);
    expect(focused()).toBe(screen.getByRole('region', { name: 'Delivery' }));
    // From the detail, Esc goes back to the row.
    press('Escape');
    expect(focused()).toBe(row('/b'));
    // Enter on a row that is not the open one opens it.
    row('/c').focus();
    press('Enter');
    expect(stores.selection.getState().selectedId).toBe(ids['/c']);
  });

  test('Esc in search leaves it for the open row and keeps what was typed', async () => {
    const stores = await show();
    press('/');
    const search = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search deliveries' });
    expect(focused()).toBe(search);
    type('jk');
    expect(search.value).toBe('jk');
    expect(stores.selection.getState().selectedId).toBe(ids['/b']);
    expect(press('Escape')).toBe(false);
    expect(focused()).toBe(row('/b'));
    expect(search.value).toBe('jk');
    await waitFor(() => expect(stores.deliveries.getState().filter.search).toBe('jk'));
  });
});
