import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { PostgresForwardQueueRepository } from '../../server/storage/postgres/forward-queue-postgres.ts';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { PostgresReplayRepository } from '../../server/storage/postgres/replay-postgres.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { seedLogPostgres } from '../helpers/seed-log.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';

after(stopTestPostgres);

/** Waits until `n` backends of this database wait for a lock (the calls under test are blocked behind the delete). */
async function blockedBehindLock(db: PostgresDatabase, n: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (row?.n === n) return;
    await sleep(10);
  }
  assert.fail(`${n} backends never waited for the log's lock`);
}

/**
 * The contract suite shows an attempt or a forward for a log deleted BEFORE it
 * is no error. Here the delete is under way (not yet committed) when they are
 * stored: the insert must wait for it and then store nothing, not pass its
 * existence check on the old row and fail the foreign key once the delete commits.
 */
describe('PostgreSQL: replays and forwards racing their log’s delete', () => {
  test('an attempt and a forward stored while their log is being deleted wait, then store nothing and do not fail', async () => {
    const database = await freshDatabase();
    const errors: unknown[] = [];
    const db = new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) });
    const deleter = new pg.Client({ connectionString: database.url });
    try {
      await runMigrations(db, POSTGRES_MIGRATIONS, new ManualClock(1_700_000_000_000));
      await seedLogPostgres(db, { id: 'log_1', accountId: 'acc_a', endpointId: 'ep_1' });
      await deleter.connect();
      await deleter.query('BEGIN');
      await deleter.query("DELETE FROM logs WHERE id = 'log_1'");

      const inserting = new PostgresReplayRepository(db).insert(
        {
          id: 'rp_1',
          accountId: 'acc_a',
          logId: 'log_1',
          endpointId: 'ep_1',
          targetUrl: 'http://127.0.0.1:1/',
          method: 'POST',
          status: 200,
          responseTime: 1,
          error: null,
          trigger: 'forward',
          createdAt: 1_700_000_000_000,
          edited: true,
          requestHeaders: [],
          requestBody: Buffer.from('x'),
          requestBodySize: 1,
          responseHeaders: [],
          responseBody: Buffer.alloc(0),
          responseTruncated: false,
        },
        10,
      );
      const enqueuing = new PostgresForwardQueueRepository(db).enqueue({
        accountId: 'acc_a',
        endpointId: 'ep_1',
        logId: 'log_1',
        enqueuedAt: 1_700_000_000_000,
      });
      await blockedBehindLock(db, 2);
      await deleter.query('COMMIT');

      await inserting;
      await enqueuing;
      assert.deepEqual(
        await db.query(
          `SELECT (SELECT count(*)::int FROM replays) AS replays, (SELECT count(*)::int FROM replay_requests) AS requests,
                  (SELECT count(*)::int FROM forward_queue) AS queued`,
        ),
        [{ replays: 0, requests: 0, queued: 0 }],
      );
      assert.deepEqual(errors, [], 'no pooled connection failed');
    } finally {
      await deleter.end();
      await db.close();
      // After the check: the drop may still reach a connection the pool has just ended.
      await database.drop();
    }
  });
});
