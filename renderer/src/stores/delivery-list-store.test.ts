// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createDeliveryListStore } from './delivery-list-store.ts';
import { createNoticesStore } from './notices-store.ts';
import { createSelectionStore } from './selection-store.ts';

/** The delivery list store against a real engine: its list, filters and live inserts. */
describe('the delivery list store', () => {
  let t: TestEngine;
  let ep: string;
  let other: string;

  beforeAll(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'a', validationType: 'none' });
    other = await t.endpoint({ name: 'b', validationType: 'none' });
    for (const [endpoint, body] of [
      [ep, '{"n":1}'],
      [other, '{"n":2,"needle":"cus_42"}'],
      [ep, '{"n":3}'],
    ] as const) {
      expect(
        (await t.deliver(`/webhook/${endpoint}`, { body, headers: { 'content-type': 'application/json' } })).status,
      ).toBe(200);
    }
  });
  afterAll(() => t.stop());

  const makeStore = () => {
    const notices = createNoticesStore();
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const selection = createSelectionStore(client, notices.getState());
    return { store: createDeliveryListStore(client, notices.getState(), selection.getState()), notices };
  };

  test('loads newest first, filters by endpoint and by search in the engine', async () => {
    const { store } = makeStore();
    await store.getState().load();
    expect(store.getState().logs.map((l) => l.endpointId)).toEqual([ep, other, ep]);
    expect(store.getState().total).toBe(3);
    await store.getState().setFilter({ endpointId: other });
    expect(store.getState().logs.map((l) => l.endpointId)).toEqual([other]);
    await store.getState().setFilter({ endpointId: null, search: 'cus_42' });
    expect(store.getState().logs.map((l) => l.endpointId)).toEqual([other]);
  });

  test('a live delivery is prepended once when it matches, ignored when it does not', async () => {
    const { store } = makeStore();
    await store.getState().setFilter({ endpointId: ep });
    const before = store.getState().logs.map((l) => l.id);
    const [newest] = (await createApiClient({ baseUrl: t.engine.apiUrl, token: t.token }).get('/api/webhooks/logs'))
      .logs;
    const fresh = { ...newest!, id: 'log_live_1', endpointId: ep };
    store.getState().received(fresh);
    store.getState().received(fresh);
    store.getState().received({ ...fresh, id: 'log_live_2', endpointId: other });
    expect(store.getState().logs.map((l) => l.id)).toEqual(['log_live_1', ...before]);
    expect(store.getState().total).toBe(before.length + 1);
  });

  test('a live delivery that arrives while the list is loading stays on top when the older answer lands', async () => {
    const { store } = makeStore();
    await store.getState().setFilter({ endpointId: ep });
    const before = store.getState().logs.map((l) => l.id);
    // The reload asks the engine first; the event for a delivery stored after that query comes before its answer.
    const reload = store.getState().load();
    const fresh = { ...store.getState().logs[0]!, id: 'log_during_load' };
    store.getState().received(fresh);
    await reload;
    expect(store.getState().logs.map((l) => l.id)).toEqual(['log_during_load', ...before]);
    expect(store.getState().total).toBe(before.length + 1);
    // A reload with nothing arriving meanwhile shows the engine's list as it is.
    await store.getState().load();
    expect(store.getState().logs.map((l) => l.id)).toEqual(before);
  });

  // Last in the file: its delivery would otherwise be on top of the other tests' unfiltered lists.
  test('a live delivery that the reload in flight also returns is listed once', async () => {
    const { store } = makeStore();
    const own = await t.endpoint({ name: 'race', validationType: 'none' });
    await store.getState().setFilter({ endpointId: own });
    expect(store.getState().logs).toEqual([]);
    const sent = await t.deliver(`/webhook/${own}/raced`, { body: '{"n":4}' });
    expect(sent.status).toBe(200);
    const id = (sent.body as { data: { id: string } }).data.id;
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const [summary] = (await client.get('/api/webhooks/logs', { params: { query: { endpointId: own } } })).logs;
    expect(summary?.id).toBe(id);
    // The reload is on its way (its query runs after the delivery was stored, so its answer
    // holds it); the live event for that delivery comes before the answer.
    const reload = store.getState().load();
    expect(store.getState().loading).toBe(true);
    store.getState().received(summary!);
    expect(store.getState().logs.map((l) => l.id)).toEqual([id]);
    await reload;
    expect(store.getState().logs.map((l) => l.id)).toEqual([id]);
    expect(store.getState().logs[0]?.path).toBe('/raced');
    expect(store.getState().total).toBe(1);
  });
});
