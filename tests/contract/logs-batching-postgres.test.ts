import assert from 'node:assert/strict';
import { newLog } from '../helpers/new-log.ts';
import type { NewLog } from '../../server/logs/log-types.ts';
import { PostgresLogsRepository } from '../../server/storage/postgres/logs-postgres.ts';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase, type Sql } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';

/**
 * PostgreSQL's logs write inserts in groups (logs-postgres.ts): those that come while a
 * transaction is in flight go together in the next one. What the contract cannot see
 * (it holds on sql.js too): how many transactions the inserts took.
 */
after(stopTestPostgres);

/** The pool, counting the transactions run through it. */
class CountingDatabase extends PostgresDatabase {
  transactions = 0;
  override transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    this.transactions++;
    return super.transaction(fn);
  }
}

const capture = (accountId: string, body: string): NewLog => newLog(body, 'success', { accountId });

async function withRepo(
  retention: { maxLogsPerAccount: number; maxBodyBytesPerAccount: number },
  fn: (repo: PostgresLogsRepository, db: CountingDatabase, url: string) => Promise<void>,
): Promise<void> {
  const database = await freshDatabase();
  const errors: unknown[] = [];
  const db = new CountingDatabase({ url: database.url, onError: (e) => errors.push(e) });
  try {
    await runMigrations(db, POSTGRES_MIGRATIONS, new ManualClock(1_700_000_000_000));
    db.transactions = 0;
    await fn(new PostgresLogsRepository(db, () => retention), db, database.url);
    assert.deepEqual(errors, []);
  } finally {
    await db.close();
    await database.drop();
  }
}

const idsOf = async (repo: PostgresLogsRepository, accountId: string) =>
  (await repo.page(accountId, { limit: 100, offset: 0 })).rows.map((l) => l.id);

describe('PostgreSQL logs: inserts written in groups', () => {
  test('inserts that come while one is in flight go in one transaction, with each account’s retention', async () => {
    await withRepo({ maxLogsPerAccount: 4, maxBodyBytesPerAccount: 1 << 30 }, async (repo, db) => {
      const accounts = ['acc_a', 'acc_b', 'acc_c'];
      await Promise.all(
        Array.from({ length: 21 }, (_, i) =>
          repo.insert(`log_${String(i).padStart(2, '0')}`, capture(accounts[i % 3]!, `body ${i}`), 'durable'),
        ),
      );
      // The first alone, the twenty that came meanwhile together.
      assert.equal(db.transactions, 2);
      assert.deepEqual(await idsOf(repo, 'acc_a'), ['log_18', 'log_15', 'log_12', 'log_09']);
      assert.deepEqual(await idsOf(repo, 'acc_b'), ['log_19', 'log_16', 'log_13', 'log_10']);
      assert.deepEqual(await idsOf(repo, 'acc_c'), ['log_20', 'log_17', 'log_14', 'log_11']);
      const counts = await db.query<{ account_id: string; logs: number; bytes: number }>(
        'SELECT account_id, logs, bytes FROM log_account_stats ORDER BY account_id',
      );
      assert.deepEqual(counts, [
        { account_id: 'acc_a', logs: 4, bytes: 27 },
        { account_id: 'acc_b', logs: 4, bytes: 28 },
        { account_id: 'acc_c', logs: 4, bytes: 28 },
      ]);
    });
  });

  test('a group that fails is tried again one insert at a time: only the failing one is refused', async () => {
    await withRepo({ maxLogsPerAccount: 100, maxBodyBytesPerAccount: 1 << 30 }, async (repo, db) => {
      await repo.insert('log_dup', capture('acc_a', 'first'), 'durable');
      db.transactions = 0;
      const results = await Promise.allSettled(
        ['log_1', 'log_2', 'log_dup', 'log_3'].map((id) => repo.insert(id, capture('acc_a', `again ${id}`), 'durable')),
      );
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
      );
      const refused = results[2] as PromiseRejectedResult;
      assert.match(String(refused.reason), /duplicate key/);
      // log_1 alone; the group of the three others, rolled back; then each of them alone.
      assert.equal(db.transactions, 5);
      assert.deepEqual(await idsOf(repo, 'acc_a'), ['log_3', 'log_2', 'log_1', 'log_dup']);
      assert.equal((await repo.find('acc_a', 'log_dup'))?.body?.toString(), 'first');
      const [bodies] = await db.query<{ n: number }>('SELECT count(*) AS n FROM log_bodies');
      assert.equal(bodies!.n, 4);
    });
  });

  test('two instances writing the same accounts at once: every insert is stored once, counts and retention exact', async () => {
    const retention = { maxLogsPerAccount: 10, maxBodyBytesPerAccount: 1 << 30 };
    await withRepo(retention, async (first, db, url) => {
      const otherDb = new PostgresDatabase({ url, onError: (e) => assert.fail(String(e)) });
      try {
        const second = new PostgresLogsRepository(otherDb, () => retention);
        // Groups of one account and of several, from two pools at once, each queueing on the
        // accounts' counts rows: every insert stored once, the counts and the budgets exact.
        const accounts = ['acc_a', 'acc_b', 'acc_c'];
        const results = await Promise.allSettled(
          Array.from({ length: 300 }, (_, i) =>
            (i % 2 === 0 ? first : second).insert(
              `log_${String(i).padStart(3, '0')}`,
              capture(accounts[i % 7 < 5 ? 0 : i % 3]!, `body ${i}`),
              'durable',
            ),
          ),
        );
        assert.deepEqual(
          results.filter((r) => r.status === 'rejected'),
          [],
        );
        const counts = await db.query<{ account_id: string; logs: number; kept: number }>(
          `SELECT s.account_id, s.logs, (SELECT count(*)::int FROM logs l WHERE l.account_id = s.account_id) AS kept
           FROM log_account_stats s ORDER BY s.account_id`,
        );
        assert.deepEqual(counts, [
          { account_id: 'acc_a', logs: 10, kept: 10 },
          { account_id: 'acc_b', logs: 10, kept: 10 },
          { account_id: 'acc_c', logs: 10, kept: 10 },
        ]);
      } finally {
        await otherDb.close();
      }
    });
  });
});

describe('PostgreSQL logs: large bodies in the search index', () => {
  test("a body over sql.js's 64 KB gets its signature rows, so a search it cannot match passes it by", async () => {
    await withRepo({ maxLogsPerAccount: 100, maxBodyBytesPerAccount: 1 << 30 }, async (repo, db) => {
      // Words that differ, as a real body's do: repeated text would fill one row's bits and no more.
      const words = Array.from({ length: 20_000 }, (_, i) => `w${(i * 7919).toString(36)}`).join(' ');
      const large = `{"items":"${words}","note":"needle-in-a-large-body"}`;
      await repo.insert('log_large', capture('acc_a', large), 'durable');
      const rows = await db.query<{ n: number; full: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE w0 = ${2 ** 48 - 1})::int AS full
         FROM log_search s JOIN logs l ON l.seq = s.log_seq WHERE l.id = 'log_large'`,
      );
      assert.ok(large.length > 150_000);
      assert.equal(rows[0]!.full, 0, 'no row with every bit set');
      assert.ok(rows[0]!.n > 100, `${rows[0]!.n} signature rows`);
      const found = async (search: string) => (await repo.page('acc_a', { limit: 10, offset: 0, search })).total;
      assert.equal(await found('needle-in-a-large-body'), 1);
      assert.equal(await found('no such words'), 0);
    });
  });
});
