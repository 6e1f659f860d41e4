import { act, cleanup, render, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../server/api-client/api-client.ts';
import { createAppStores, StoresContext, type AppStores } from '../../stores/app-stores.ts';
import { memoryStorage, startTestEngine, type ComponentEngine } from '../../test-engine.ts';
import { Inspector } from './inspector.tsx';

/** The address keeps the endpoint chosen and the delivery open, so a reload (a new page on that address) keeps both. */
describe('the address of the deliveries screen', () => {
  let running: ComponentEngine;
  let client: ApiClient;
  let orders: string;
  let plain: string;
  let ordersLog: string;

  const deliver = async (url: string): Promise<string> => {
    const res = await fetch(url, { method: 'POST', body: '{}' });
    return ((await res.json()) as { data: { id: string } }).data.id;
  };

  beforeAll(async () => {
    running = await startTestEngine('hookscope-deep-link-');
    client = running.client;
    const a = await client.post('/api/endpoints', { body: { name: 'Orders', validationType: 'none' } });
    const b = await client.post('/api/endpoints', { body: { name: 'Plain', validationType: 'none' } });
    [orders, plain] = [a.id, b.id];
    ordersLog = await deliver(a.url);
    await deliver(b.url);
  });
  afterAll(() => running?.stop());
  afterEach(() => {
    cleanup();
    window.history.replaceState(null, '', window.location.pathname);
  });

  /** A page opened at `hash`, as a reload opens it: fresh stores, the endpoints read as the live stream's backfill does. */
  const openAt = (hash: string): AppStores => {
    window.history.replaceState(null, '', hash);
    const stores = createAppStores(client, memoryStorage());
    void stores.endpoints.getState().load();
    render(
      <StoresContext.Provider value={stores}>
        <Inspector />
      </StoresContext.Provider>,
    );
    return stores;
  };
  /** Follows a link within the page (the hash alone changes, as the Deliveries link does); `shown` is the address after. */
  const goTo = async (hash: string, shown = hash): Promise<void> => {
    const changed = new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
    window.location.hash = hash;
    await act(() => changed);
    expect(window.location.hash).toBe(shown);
  };
  const errors = (stores: AppStores) =>
    stores.notices
      .getState()
      .notices.filter((n) => n.kind === 'error')
      .map((n) => n.text);

  test('opened at #/endpoints/<id>/logs/<id>: that endpoint is chosen and that delivery open; choices rewrite it', async () => {
    const stores = openAt(`#/endpoints/${orders}/logs/${ordersLog}`);
    await waitFor(() => expect(stores.selection.getState().detail?.id).toBe(ordersLog));
    await waitFor(() => expect(stores.deliveries.getState().logs.map((l) => l.id)).toEqual([ordersLog]));
    expect(stores.deliveries.getState().filter.endpointId).toBe(orders);
    expect(window.location.hash).toBe(`#/endpoints/${orders}/logs/${ordersLog}`);

    await act(() => stores.deliveries.getState().setFilter({ endpointId: plain }));
    expect(window.location.hash).toBe(`#/endpoints/${plain}/logs/${ordersLog}`);
    await act(() => stores.selection.getState().select(null));
    expect(window.location.hash).toBe(`#/endpoints/${plain}`);
    await act(() => stores.deliveries.getState().setFilter({ endpointId: null }));
    expect(window.location.hash).toBe('');
    expect(errors(stores)).toEqual([]);
  });

  test('opened at #/endpoints/<id>: the endpoint is chosen, and stays chosen with nothing open', async () => {
    const stores = openAt(`#/endpoints/${plain}`);
    await waitFor(() => expect(stores.deliveries.getState().logs).toHaveLength(1));
    expect(stores.deliveries.getState().logs[0]!.endpointId).toBe(plain);
    await waitFor(() => expect(stores.endpoints.getState().loaded).toBe(true));
    expect(stores.deliveries.getState().filter.endpointId).toBe(plain);
    expect(window.location.hash).toBe(`#/endpoints/${plain}`);
  });

  test('an endpoint deleted since falls back to All endpoints, with no error', async () => {
    const gone = await client.post('/api/endpoints', { body: { name: 'Gone', validationType: 'none' } });
    await client.delete('/api/endpoints/{endpointId}', { params: { path: { endpointId: gone.id } } });
    const stores = openAt(`#/endpoints/${gone.id}`);
    await waitFor(() => expect(stores.endpoints.getState().loaded).toBe(true));
    await waitFor(() => expect(stores.deliveries.getState().filter.endpointId).toBe(null));
    await waitFor(() => expect(stores.deliveries.getState().logs).toHaveLength(2));
    expect(window.location.hash).toBe('');
    expect(errors(stores)).toEqual([]);
  });

  test('#/logs/<id> opens the delivery in All endpoints; other screens keep their address; #/ stays while nothing is shown', async () => {
    let stores = openAt(`#/logs/${ordersLog}`);
    await waitFor(() => expect(stores.selection.getState().detail?.id).toBe(ordersLog));
    expect(stores.deliveries.getState().filter.endpointId).toBe(null);
    expect(window.location.hash).toBe(`#/logs/${ordersLog}`);
    cleanup();

    stores = openAt('#/settings');
    await act(() => stores.deliveries.getState().setFilter({ endpointId: orders }));
    expect(window.location.hash).toBe('#/settings');
    cleanup();

    stores = openAt('#/settings');
    await waitFor(() => expect(stores.endpoints.getState().loaded).toBe(true));
    // The Deliveries link (#/) with nothing shown: the address stays as the link made it.
    await goTo('#/');
    expect(window.location.hash).toBe('#/');
    await act(() => stores.deliveries.getState().setFilter({ endpointId: orders }));
    expect(window.location.hash).toBe(`#/endpoints/${orders}`);
    // Away to another screen and back by the Deliveries link: the address is again what the screen shows.
    await goTo('#/settings');
    await goTo('#/', `#/endpoints/${orders}`);
    expect(stores.deliveries.getState().filter.endpointId).toBe(orders);
  });
});
