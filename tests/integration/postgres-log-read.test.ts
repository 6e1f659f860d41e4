import assert from 'node:assert/strict';
import { PostgresLogsRepository } from '../../server/storage/postgres/logs-postgres.ts';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase, type Sql } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { PostgresReplayRepository } from '../../server/storage/postgres/replay-postgres.ts';
import type { StoredReplay } from '../../server/replay/replay-types.ts';
import { storedReplay } from '../helpers/stored-replay.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { newLog } from '../helpers/new-log.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';

after(stopTestPostgres);

/** The pool, noting each call a repository makes: a statement by its name (or "unnamed"), a transaction or session. */
class NotedDatabase extends PostgresDatabase {
  readonly calls: string[] = [];

  override query<R extends object>(text: string, params?: readonly unknown[], name?: string): Promise<R[]> {
    this.calls.push(name ?? 'unnamed');
    return super.query<R>(text, params, name);
  }

  override transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    this.calls.push('transaction');
    return super.transaction(fn);
  }

  override session<T>(fn: (session: Sql) => Promise<T>): Promise<T> {
    this.calls.push('session');
    return super.session(fn);
  }
}

const attempt = (id: string, createdAt: number): StoredReplay => storedReplay({ id, createdAt });

/**
 * A log's detail (GET /api/webhooks/logs/:id) reads the log with its body, then, for
 * `explainable`, its newest replays: each must be one prepared statement, one round
 * trip planned once per connection (docs/PERFORMANCE.md: the five statements of the
 * replays' transaction and the find's planning made most of its time at 100,000 logs).
 */
describe('PostgreSQL: the statements of one log read', () => {
  test("find is one prepared statement; forLog's page and total are one prepared statement, no transaction", async () => {
    const database = await freshDatabase();
    const db = new NotedDatabase({ url: database.url, onError: (e) => assert.fail(String(e)) });
    try {
      await runMigrations(db, POSTGRES_MIGRATIONS, new ManualClock(1_700_000_000_000));
      const logs = new PostgresLogsRepository(db, () => ({ maxLogsPerAccount: 100, maxBodyBytesPerAccount: 1e9 }));
      const replays = new PostgresReplayRepository(db);
      await logs.insert('log_1', newLog('{"a":1}'), 'durable');
      for (const [id, at] of [
        ['rp_1', 1],
        ['rp_2', 3],
        ['rp_3', 2],
      ] as const) {
        await replays.insert({ ...attempt(id, at), logId: 'log_1' }, null);
      }

      db.calls.length = 0;
      const found = await logs.find('acc_a', 'log_1');
      assert.deepStrictEqual([found?.id, found?.body?.toString()], ['log_1', '{"a":1}']);
      assert.deepStrictEqual(db.calls, ['hookscope_logs_find']);

      db.calls.length = 0;
      const page = await replays.forLog('acc_a', 'log_1', 2, 0);
      assert.deepStrictEqual([page.rows.map((r) => r.id), page.total], [['rp_2', 'rp_3'], 3]);
      // Past the last attempt: no rows, the total still counted in the same statement.
      const beyond = await replays.forLog('acc_a', 'log_1', 2, 3);
      assert.deepStrictEqual([beyond.rows, beyond.total], [[], 3]);
      assert.deepStrictEqual(db.calls, ['hookscope_replays_for_log', 'hookscope_replays_for_log']);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
