import assert from 'node:assert/strict';
import { after, before, describe, test } from '../../helpers/node-test.ts';
import { EventBus } from '../../../server/events/event-bus.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { replayMigrations } from '../../../server/replay/replay-migrations.ts';
import { ReplayService } from '../../../server/replay/replay-service.ts';
import type { StoredReplay } from '../../../server/replay/replay-types.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SqljsForwardQueueRepository } from '../../../server/storage/sqljs/forward-queue-sqljs.ts';
import { SqljsReplayRepository } from '../../../server/storage/sqljs/replay-sqljs.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { IdGenerator } from '../../../server/support/ids.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import { deleteLogsSqljs, seedLogSqljs } from '../../helpers/seed-log.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-replay-requests-');

/**
 * An edited attempt's request (replay_requests) lives exactly as long as its
 * attempt, whichever way the attempt goes: trimmed by history's cap, with its
 * logs, with its endpoint. Through the API these paths hide one another (a log's
 * deletion removes its attempts by trigger), so each is driven here alone.
 */
describe('replay_requests follow their attempts', () => {
  const clock = new ManualClock(Date.parse('2026-02-01T00:00:00Z'));
  let store: SqljsStore;
  let service: ReplayService;
  let n = 0;

  const rec = (over: Partial<StoredReplay>): StoredReplay => ({
    id: `rp_${++n}`,
    accountId: 'acct_a',
    logId: 'log_1',
    endpointId: 'ep_1',
    targetUrl: 'http://127.0.0.1:1/',
    method: 'POST',
    status: 200,
    responseTime: 1,
    error: null,
    trigger: 'manual',
    createdAt: clock.now() + n,
    edited: true,
    requestHeaders: [],
    requestBody: Buffer.from(`edited body ${n}`),
    requestBodySize: Buffer.byteLength(`edited body ${n}`),
    responseHeaders: [],
    responseBody: Buffer.alloc(0),
    responseTruncated: false,
    ...over,
  });
  const rows = async (): Promise<string[]> =>
    (await store.all<{ replay_id: string }>('SELECT replay_id FROM replay_requests ORDER BY replay_id')).map(
      (r) => r.replay_id,
    );
  // Attempts are kept only while their log exists: each test starts with these three logs and no attempt.
  const clear = async () => {
    await store.write([
      { sql: 'DELETE FROM replays', params: [] },
      { sql: 'DELETE FROM logs', params: [] },
    ]);
    for (const id of ['log_1', 'log_2', 'log_3'])
      await seedLogSqljs(store, { id, accountId: 'acct_a', endpointId: 'ep_1' });
  };

  const newService = () =>
    new ReplayService({
      repo: new SqljsReplayRepository(store),
      queue: new SqljsForwardQueueRepository(store),
      logs: {
        find: () => Promise.reject(new Error('not used')),
        statusOf: () => Promise.reject(new Error('not used')),
      },
      endpoints: { forReceiver: () => undefined },
      urls: { publicBase: null },
      clock,
      ids: new IdGenerator(clock, new SeededRandom(3)),
      events: new EventBus(),
      maxHistoryPerAccount: 3,
    });

  before(async () => {
    store = await SqljsStore.open({
      dir: await tempDir(),
      migrations: [
        { feature: 'logs', migrations: logsMigrations },
        { feature: 'replay', migrations: replayMigrations },
      ],
      clock,
    });
    service = newService();
  });
  after(() => store.close());

  test('only edited attempts have a row; a plain one has none, and its body is never stored', async () => {
    await clear();
    await service.record(rec({ id: 'rp_plain', edited: false, requestBody: null, requestBodySize: null }));
    await service.record(rec({ id: 'rp_method_only', requestBody: null, requestBodySize: null }));
    await service.record(rec({ id: 'rp_body' }));
    assert.deepEqual(await rows(), ['rp_body', 'rp_method_only']);
    const bodies = await store.all<{ replay_id: string; body: Uint8Array | null }>(
      'SELECT replay_id, body FROM replay_requests ORDER BY replay_id',
    );
    assert.equal(Buffer.from(bodies[0]!.body!).toString(), `edited body ${n}`);
    assert.equal(bodies[1]!.body, null);
  });

  test("history's cap trims the edited requests with their attempts", async () => {
    await clear();
    // A fresh service trims on its 100th insert, to the newest 3.
    const fresh = newService();
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await fresh.record(rec({}))).id);
    assert.deepEqual(await rows(), ids.slice(-3).sort());
    assert.deepEqual((await store.all<{ n: number }>('SELECT COUNT(*) AS n FROM replays'))[0]!.n, 3);
  });

  test('deleting logs or an endpoint removes their edited requests, and only theirs', async () => {
    await clear();
    await service.record(rec({ id: 'rp_l1', logId: 'log_1' }));
    await service.record(rec({ id: 'rp_l2', logId: 'log_2' }));
    await service.record(rec({ id: 'rp_e2', logId: 'log_3', endpointId: 'ep_2' }));
    // A log goes as retention or a user's delete takes it: its attempts follow it (replays_follow_logs).
    await deleteLogsSqljs(store, ['log_1']);
    assert.deepEqual(await rows(), ['rp_e2', 'rp_l2']);
    await service.deleteForEndpoint('acct_a', 'ep_2');
    assert.deepEqual(await rows(), ['rp_l2']);
  });
});
