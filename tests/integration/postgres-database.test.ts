import assert from 'node:assert/strict';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';

after(stopTestPostgres);

async function withDatabase(fn: (db: PostgresDatabase) => Promise<void>): Promise<void> {
  const database = await freshDatabase();
  const errors: unknown[] = [];
  const db = new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) });
  try {
    await fn(db);
    assert.deepEqual(errors, []);
  } finally {
    await db.close();
    await database.drop();
  }
}

describe('PostgresDatabase', () => {
  test('bigint comes back as a number; one a number cannot hold exactly fails its query', async () => {
    await withDatabase(async (db) => {
      assert.deepEqual(await db.query('SELECT 1700000000123::bigint AS ms, -1::bigint AS neg, NULL::bigint AS none'), [
        { ms: 1_700_000_000_123, neg: -1, none: null },
      ]);
      assert.deepEqual(await db.query('SELECT $1::bigint AS max', [Number.MAX_SAFE_INTEGER]), [
        { max: Number.MAX_SAFE_INTEGER },
      ]);
      await assert.rejects(db.query('SELECT 9007199254740993::bigint AS n'), {
        name: 'RangeError',
        message: "bigint 9007199254740993 is beyond JavaScript's safe integers",
      });
      // The pool is still usable after that failure.
      assert.deepEqual(await db.query('SELECT 2::bigint AS n'), [{ n: 2 }]);
    });
  });

  test('a transaction commits when its function resolves and rolls back when it throws', async () => {
    await withDatabase(async (db) => {
      await db.query('CREATE TABLE t (v integer)');
      assert.equal(
        await db.transaction(async (tx) => {
          await tx.query('INSERT INTO t VALUES (1)');
          await tx.query('INSERT INTO t VALUES (2)');
          return 'done';
        }),
        'done',
      );
      const failure = new Error('second thoughts');
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO t VALUES (3)');
          throw failure;
        }),
        (e) => e === failure,
      );
      assert.deepEqual(await db.query('SELECT v FROM t ORDER BY v'), [{ v: 1 }, { v: 2 }]);
    });
  });
});
