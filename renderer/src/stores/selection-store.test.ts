// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createDeliveryListStore } from './delivery-list-store.ts';
import { createNoticesStore } from './notices-store.ts';
import { createSelectionStore } from './selection-store.ts';

/** The selection store (the open delivery and its detail) against a real engine, with the list beside it. */
describe('the selection store', () => {
  let t: TestEngine;
  /** Every log id as the engine lists them, newest first. */
  let all: string[];

  beforeAll(async () => {
    t = await startTestEngine();
    const ep = await t.endpoint({ name: 'a', validationType: 'none' });
    for (const body of ['{"n":1}', '{"n":2}', '{"n":3}']) {
      expect(
        (await t.deliver(`/webhook/${ep}`, { body, headers: { 'content-type': 'application/json' } })).status,
      ).toBe(200);
    }
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    all = (await api.get('/api/webhooks/logs')).logs.map((l) => l.id);
  });
  afterAll(() => t.stop());

  const makeStores = () => {
    const notices = createNoticesStore();
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const store = createSelectionStore(client, notices.getState());
    const list = createDeliveryListStore(client, notices.getState(), store.getState());
    return { store, list, notices };
  };

  test('opening a delivery reads its detail; a failure is told in words', async () => {
    const { store, list, notices } = makeStores();
    await list.getState().load();
    const id = list.getState().logs[0]!.id;
    await store.getState().select(id);
    expect(store.getState().detail?.body).toBe('{"n":3}');
    await store.getState().select('log_nope');
    expect(store.getState().detail).toBe(null);
    expect(notices.getState().notices.map((n) => n.text)).toEqual([
      'Opening the delivery failed: Log log_nope was not found. (LOG_NOT_FOUND)',
    ]);
  });

  test('opening a delivery yourself pauses following; following opening one does not', async () => {
    const { store, list } = makeStores();
    await list.getState().load();
    expect(store.getState().following).toBe(true);
    await store.getState().select(all[0]!, true);
    // Opened by following: the body view folds a large body (body-view.tsx).
    expect([store.getState().following, store.getState().openedByFollowing]).toEqual([true, true]);
    await store.getState().select(all[1]!);
    expect([store.getState().following, store.getState().openedByFollowing, store.getState().detail?.id]).toEqual([
      false,
      false,
      all[1],
    ]);
    store.getState().setFollowing(true);
    expect(store.getState().following).toBe(true);
  });

  test('pinning from the list shows on the open detail; pinning another delivery leaves it alone', async () => {
    const { store, list, notices } = makeStores();
    await list.getState().load();
    await store.getState().select(all[0]!);
    expect(store.getState().detail?.pinned).toBe(false);
    await list.getState().pin(all[1]!, true);
    expect([store.getState().detail?.id, store.getState().detail?.pinned]).toEqual([all[0], false]);
    await list.getState().pin(all[0]!, true);
    expect([store.getState().detail?.pinned, list.getState().logs[0]?.pinned]).toEqual([true, true]);
    await list.getState().pin(all[0]!, false);
    await list.getState().pin(all[1]!, false);
    expect(store.getState().detail?.pinned).toBe(false);
    expect(notices.getState().notices).toEqual([]);
  });

  test('a deletion closes the open delivery only when it is among the deleted ones', async () => {
    const { store } = makeStores();
    await store.getState().select(all[1]!);
    store.getState().deleted([all[0]!, all[2]!]);
    expect(store.getState().detail?.id).toBe(all[1]);
    store.getState().deleted([all[1]!]);
    expect([store.getState().selectedId, store.getState().detail]).toEqual([null, null]);
  });

  test('a log.updated "explainable" sets the open detail\'s value as told; another delivery\'s leaves it alone', async () => {
    const { store } = makeStores();
    await store.getState().select(all[0]!);
    expect(store.getState().detail?.explainable).toBe(false);
    store.getState().explainable(all[1]!, true);
    expect(store.getState().detail?.explainable).toBe(false);
    store.getState().explainable(all[0]!, true);
    expect([store.getState().detail?.id, store.getState().detail?.explainable]).toEqual([all[0], true]);
    store.getState().explainable(all[0]!, false);
    expect(store.getState().detail?.explainable).toBe(false);
  });

  // Last in the file: it deletes a delivery the other tests read.
  test('deleting the open delivery from the list closes it and drops its row', async () => {
    const { store, list, notices } = makeStores();
    await list.getState().load();
    await store.getState().select(all[2]!);
    await list.getState().remove([all[2]!]);
    expect([store.getState().selectedId, store.getState().detail]).toEqual([null, null]);
    expect(list.getState().logs.map((l) => l.id)).toEqual([all[0], all[1]]);
    expect(notices.getState().notices).toEqual([]);
  });
});
