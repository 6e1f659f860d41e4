import assert from 'node:assert/strict';
import { createApiClient, type ApiClient } from '../../server/api-client/api-client.ts';
import { DeliveryListener } from '../../server/cli/delivery-listener.ts';
import type { ListenReport } from '../../server/cli/listen-output.ts';
import { ListenState } from '../../server/cli/listen-state.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

// `hookscope listen`'s catch-up (DeliveryListener, in this process) against a real engine on
// port 0, over real HTTP, sending to a recording target; on sql.js and on PostgreSQL.

after(stopTestPostgres);

/**
 * A listener whose catch-up reads pages of 2. Once its first catch-up page is answered,
 * `onFirstPage` runs (a test deletes a log there) before the listener reads on.
 */
function listenerFor(
  t: TestEngine,
  target: TargetServer,
  onFirstPage: (logIds: string[]) => Promise<void>,
): { listener: DeliveryListener; api: ApiClient; reports: ListenReport[]; places: ListenState } {
  let pages = 0;
  const api = createApiClient({
    baseUrl: t.engine.apiUrl,
    token: t.token,
    fetch: async (request) => {
      const res = await fetch(request);
      const query = new URL(request.url).searchParams;
      // A catch-up page: after a cursor (or, as listen once read them, by offset).
      if ((query.has('after') || query.has('offset')) && ++pages === 1) {
        const body = (await res.clone().json()) as { data: { logs: { id: string }[] } };
        await onFirstPage(body.data.logs.map((l) => l.id));
      }
      return res;
    },
  });
  const reports: ListenReport[] = [];
  const places = new ListenState(t.dataDir, 'local');
  const listener = new DeliveryListener({
    targetUrl: target.url,
    resign: false,
    catchUp: true,
    timeoutMs: 5000,
    retry: { initialMs: 10, maxMs: 10 },
    engineRetry: { initialMs: 10, maxMs: 10 },
    places,
    report: (r) => reports.push(r),
    signal: new AbortController().signal,
    isEngineDown: () => false,
    reconnect: async () => api,
    onFatal: (e) => assert.fail(String(e)),
    pageSize: 2,
  });
  return { listener, api, reports, places };
}

for (const store of ['sqljs', 'postgres'] as const) {
  describe(`listen catch-up by cursor (${store})`, () => {
    /** An engine on this backend (a fresh database for PostgreSQL), and how to stop it and drop that. */
    const start = async (): Promise<{ t: TestEngine; stop: () => Promise<void> }> => {
      const db = store === 'postgres' ? await freshDatabase() : null;
      const t = await startTestEngine(db ? { databaseUrl: db.url } : {});
      return {
        t,
        stop: async () => {
          await t.stop();
          await db?.drop();
        },
      };
    };

    test('a log deleted between two catch-up pages: every other delivery forwarded once, in arrival order', async () => {
      const { t, stop } = await start();
      const target = await TargetServer.start();
      try {
        const ep = await t.endpoint({ name: 'shop', validationType: 'none' });
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) {
          const r = await t.deliver(`/webhook/${ep}/n/${i}`, { body: `delivery ${i}` });
          ids.push(r.body.data.id as string);
        }
        let deleted = '';
        const { listener, api, reports, places } = listenerFor(t, target, async (page) => {
          // The last log of the first page read goes: it is also the next page's cursor.
          deleted = page.at(-1)!;
          assert.equal((await t.api('DELETE', `/api/webhooks/logs/${deleted}`)).status, 200);
        });
        await places.save(ep, ids[0]!);
        listener.connected(api, [ep]);
        await listener.settled();
        assert.deepEqual(
          target.received.map((r) => r.url),
          [1, 3, 4, 5, 6, 7].map((i) => `/n/${i}`),
        );
        // The first page after ids[0] was ids[1], ids[2]: ids[2] was listed, then deleted before it was sent.
        assert.equal(deleted, ids[2]);
        assert.deepEqual(
          reports.map((r) => `${r.type} ${'log' in r ? r.log.id : ''}`),
          [`forwarded ${ids[1]}`, `skipped ${ids[2]}`, ...[3, 4, 5, 6, 7].map((i) => `forwarded ${ids[i]}`)],
        );
        assert.equal((await places.load()).get(ep), ids[7]);
      } finally {
        await target.close();
        await stop();
      }
    });

    test('the place deleted while away: one line says so, then the endpoint is caught up from its oldest log', async () => {
      const { t, stop } = await start();
      const target = await TargetServer.start();
      try {
        const ep = await t.endpoint({ name: 'shop', validationType: 'none' });
        const ids: string[] = [];
        for (let i = 0; i < 5; i++)
          ids.push((await t.deliver(`/webhook/${ep}/n/${i}`, { body: `d${i}` })).body.data.id);
        // The last delivery forwarded was ids[2]; the logs before it were deleted (a clear), then ids[2] too.
        assert.equal(
          (await t.api('POST', '/api/webhooks/logs/delete', { body: { ids: ids.slice(0, 3) } })).status,
          200,
        );
        const { listener, api, reports, places } = listenerFor(t, target, async () => undefined);
        await places.save(ep, ids[2]!);
        listener.connected(api, [ep]);
        await listener.settled();
        assert.deepEqual(
          target.received.map((r) => r.url),
          ['/n/3', '/n/4'],
        );
        assert.deepEqual(reports[0], {
          type: 'notice',
          endpointId: ep,
          message:
            `${ep}: ${ids[2]}, where the catch-up starts, is no longer stored (deleted, or evicted by retention); ` +
            "catching up from the endpoint's oldest stored delivery.",
        });
      } finally {
        await target.close();
        await stop();
      }
    });
  });
}
