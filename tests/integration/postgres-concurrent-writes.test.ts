import assert from 'node:assert/strict';
import type { RejectionTally } from '../../server/metrics/metrics-repository.ts';
import type { ShareRecord } from '../../server/share/share-types.ts';
import { PostgresMetricsRepository } from '../../server/storage/postgres/metrics-postgres.ts';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { PostgresSessionRepository } from '../../server/storage/postgres/session-postgres.ts';
import { PostgresShareRepository } from '../../server/storage/postgres/share-postgres.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { seedLogPostgres } from '../helpers/seed-log.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { waitFor } from '../helpers/wait-for.ts';

after(stopTestPostgres);

/**
 * Writes two engine instances make at the same moment on one database. The
 * overlap is made certain rather than hoped for: a third connection holds the
 * row lock, both writes are seen waiting on it (pg_stat_activity), then the
 * lock is released. The contract suite's racing calls pass on either backend;
 * these pin what only PostgreSQL's concurrency can get wrong.
 */
async function withInstances(
  fn: (holder: PostgresDatabase, a: PostgresDatabase, b: PostgresDatabase) => Promise<void>,
) {
  const database = await freshDatabase();
  const errors: unknown[] = [];
  // Three pools: the lock holder and two instances, each with its own connections.
  const [holder, a, b] = [0, 1, 2].map(
    () => new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) }),
  );
  try {
    await runMigrations(holder!, POSTGRES_MIGRATIONS, new ManualClock(1_700_000_000_000));
    await fn(holder!, a!, b!);
    assert.deepEqual(errors, []);
  } finally {
    for (const db of [holder, a, b]) await db!.close();
    await database.drop();
  }
}

/** Connections of this database waiting for a lock. */
async function lockWaiters(db: PostgresDatabase): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return row!.n;
}

/**
 * Runs `writes` while `holder` keeps `lockSql`'s rows locked, waits until
 * `waiting` of them wait on the lock, releases it, and answers how each ended.
 */
async function whileLocked(
  holder: PostgresDatabase,
  lockSql: string,
  writes: (() => Promise<void>)[],
  waiting: number,
): Promise<PromiseSettledResult<void>[]> {
  const started = await holder.transaction(async (tx) => {
    assert.equal((await tx.query(lockSql)).length, 1, 'the row to lock exists');
    const settled = Promise.allSettled(writes.map((w) => w()));
    await waitFor(`${waiting} writes waiting on the locked row`, async () => (await lockWaiters(holder)) === waiting);
    // Wrapped: the transaction must commit (releasing the lock) before they can settle.
    return { settled };
  });
  return started.settled;
}

const M0 = 1_700_000_040_000;

describe('PostgreSQL writes of two instances at the same moment', () => {
  test('countRejections of one cell from two instances both add up: no update is lost', async () => {
    await withInstances(async (holder, a, b) => {
      const cell = (count: number, lastAt: number): RejectionTally => ({
        accountId: 'acc_a',
        endpointId: 'ep_1',
        minute: M0,
        reason: 'rate_limited',
        count,
        lastAt,
      });
      const keepAll = () => 0;
      const [repoA, repoB] = [new PostgresMetricsRepository(a), new PostgresMetricsRepository(b)];
      await repoA.countRejections([cell(5, M0 + 1)], keepAll);
      const results = await whileLocked(
        holder,
        'SELECT count FROM metrics_rejections FOR UPDATE',
        [
          () => repoA.countRejections([cell(1, M0 + 3)], keepAll),
          () => repoB.countRejections([cell(2, M0 + 2)], keepAll),
        ],
        2,
      );
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'fulfilled'],
      );
      assert.deepStrictEqual(await repoB.rejections('acc_a', M0, M0 + 60_000, 60_000), [
        { endpointId: 'ep_1', bucket: 0, reason: 'rate_limited', count: 8, lastAt: M0 + 3 },
      ]);
    });
  });

  test("replaces of one log's link from two instances both succeed and leave one link", async () => {
    await withInstances(async (holder, a, b) => {
      const link = (tokenHash: string): ShareRecord => ({
        tokenHash,
        accountId: 'acc_a',
        logId: 'log_1',
        endpointId: 'ep_1',
        redact: false,
        redactPath: false,
        createdAt: M0,
        expiresAt: M0 + 3_600_000,
      });
      const [repoA, repoB] = [new PostgresShareRepository(a), new PostgresShareRepository(b)];
      await seedLogPostgres(holder, { id: 'log_1', accountId: 'acc_a', endpointId: 'ep_1' });
      await repoA.replace(link('h_old'));
      const results = await whileLocked(
        holder,
        'SELECT token_hash FROM shares FOR UPDATE',
        [() => repoA.replace(link('h_a')), () => repoB.replace(link('h_b'))],
        2,
      );
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'fulfilled'],
      );
      const left = await repoA.findForLog('acc_a', 'log_1');
      assert.ok(left && ['h_a', 'h_b'].includes(left.tokenHash));
      assert.deepEqual(await holder.query('SELECT count(*)::int AS n FROM shares'), [{ n: 1 }]);
    });
  });

  test("a sign-in does not wait for an expired session another instance holds: that one's prune is left to it", async () => {
    await withInstances(async (holder, a) => {
      const repo = new PostgresSessionRepository(a);
      const session = (idHash: string, expiresAt: number) => ({
        idHash,
        accountId: 'acc_a',
        accountName: 'alice',
        createdAt: M0 - 10,
        expiresAt,
      });
      await repo.insert(session('h_held', M0 - 1), [], M0 - 5);
      await repo.insert(session('h_free', M0 - 1), [], M0 - 5);
      let inserting: Promise<void> | undefined;
      try {
        await holder.transaction(async (tx) => {
          await tx.query("SELECT id_hash FROM sessions WHERE id_hash = 'h_held' FOR UPDATE");
          let ended = false;
          inserting = repo.insert(session('h_new', M0 + 1000), [], M0).then(() => {
            ended = true;
          });
          // Either the insert ends while the row is still held, or it waits on it: only the first is right.
          const outcome = await waitFor('the insert to end or wait', async () =>
            ended ? 'ended' : (await lockWaiters(holder)) > 0 ? 'waited' : false,
          );
          assert.equal(outcome, 'ended');
          const left = await tx.query<{ id_hash: string }>('SELECT id_hash FROM sessions ORDER BY id_hash');
          assert.deepEqual(
            left.map((r) => r.id_hash),
            ['h_held', 'h_new'],
          );
        });
      } finally {
        await inserting;
      }
    });
  });
});
