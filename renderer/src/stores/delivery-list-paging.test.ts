// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { browserClient } from '../api/client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createDeliveryListStore, PAGE } from './delivery-list-store.ts';
import { createNoticesStore } from './notices-store.ts';
import { createSelectionStore } from './selection-store.ts';

const SEEDED = 450;

/** The delivery list store beyond the engine's first page, against a real engine holding 450 logs. */
describe('the delivery list store, page after page', () => {
  let t: TestEngine;
  let ep: string;
  /** Every log id as the engine lists them, newest first. */
  let all: string[];

  const deliver = async (n: number): Promise<string> => {
    const r = await t.deliver(`/webhook/${ep}`, {
      body: JSON.stringify({ n, type: n % 2 ? 'invoice.paid' : 'customer.created' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
    return (r.body as { data: { id: string } }).data.id;
  };
  const engineIds = async (): Promise<string[]> => {
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const ids: string[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await api.get('/api/webhooks/logs', {
        params: { query: { limit: String(PAGE), offset: String(offset) } },
      });
      ids.push(...page.logs.map((l) => l.id));
      if (!page.hasMore) return ids;
    }
  };

  beforeAll(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'many', validationType: 'none' });
    for (let n = 1; n <= SEEDED; n++) await deliver(n);
    all = await engineIds();
    expect(all.length).toBe(SEEDED);
  }, 120_000);
  afterAll(() => t.stop());

  const makeStore = () => {
    const notices = createNoticesStore();
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const selection = createSelectionStore(client, notices.getState());
    return { store: createDeliveryListStore(client, notices.getState(), selection.getState()), notices };
  };
  const ids = (s: { logs: { id: string }[] }) => s.logs.map((l) => l.id);

  test('loads the first page, then the next ones to the oldest, each row once; then stops asking', async () => {
    const { store, notices } = makeStore();
    await store.getState().load();
    expect([store.getState().logs.length, store.getState().total, store.getState().hasMore]).toEqual([200, 450, true]);
    await store.getState().loadMore();
    expect([store.getState().logs.length, store.getState().hasMore]).toEqual([400, true]);
    await store.getState().loadMore();
    expect([store.getState().logs.length, store.getState().hasMore]).toEqual([450, false]);
    expect(ids(store.getState())).toEqual(all);
    // Nothing left: no request, no change.
    const before = store.getState().logs;
    await store.getState().loadMore();
    expect(store.getState().logs).toBe(before);
    expect(notices.getState().notices).toEqual([]);
    // Pages below are not arrivals (the unread count and following count only those).
    expect(store.getState().arrivals).toBe(0);
  });

  test('deliveries that arrived before their live event moved the offsets: the repeated rows are kept once', async () => {
    const { store } = makeStore();
    await store.getState().load();
    // Three deliveries the store has not heard of yet shift the engine's rows down by three.
    const late = [await deliver(1001), await deliver(1002), await deliver(1003)];
    await store.getState().loadMore();
    const held = ids(store.getState());
    expect(held.length).toBe(397); // rows 200-399 of the engine now start with three the store holds
    expect(new Set(held).size).toBe(held.length);
    expect(held).toEqual(all.slice(0, 397));
    // Their live events arrive: on top, counted as arrivals.
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const fresh = (await api.get('/api/webhooks/logs', { params: { query: { limit: '3' } } })).logs;
    expect(fresh.map((l) => l.id)).toEqual([...late].reverse());
    for (const l of [...fresh].reverse()) store.getState().received(l);
    expect(store.getState().arrivals).toBe(3);
    await store.getState().loadMore();
    expect(ids(store.getState())).toEqual([...[...late].reverse(), ...all]);
    expect([store.getState().total, store.getState().hasMore]).toEqual([453, false]);
  });

  test('a live delivery under a search is merged on top, keeping the pages loaded below', async () => {
    const { store } = makeStore();
    await store.getState().setFilter({ search: 'invoice.paid' });
    await store.getState().loadMore();
    const loaded = ids(store.getState());
    expect(loaded.length).toBe(227); // 225 odd n of the 450, two of the three late ones (1001, 1003)
    const id = await deliver(2001);
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const [log] = (await api.get('/api/webhooks/logs', { params: { query: { limit: '1' } } })).logs;
    store.getState().received(log!);
    await expect.poll(() => store.getState().logs.length).toBe(228);
    expect(ids(store.getState())).toEqual([id, ...loaded]);
    expect(store.getState().arrivals).toBe(1);
  });

  test('a page that fails is said in a notice, not asked again by itself, and asked again on Retry', async () => {
    const notices = createNoticesStore();
    const client = browserClient('http://127.0.0.1:9');
    const selection = createSelectionStore(client, notices.getState());
    const store = createDeliveryListStore(client, notices.getState(), selection.getState());
    store.setState({ hasMore: true });
    await store.getState().loadMore();
    expect([store.getState().moreFailed, store.getState().loadingMore]).toEqual([true, false]);
    await store.getState().loadMore();
    expect(notices.getState().notices.length).toBe(1);
    expect(notices.getState().notices[0]!.text).toMatch(/^Loading more deliveries failed: /);
    await store.getState().loadMore(true);
    expect(notices.getState().notices.length).toBe(2);
  });
});
