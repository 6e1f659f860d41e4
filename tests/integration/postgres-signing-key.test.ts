import assert from 'node:assert/strict';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { loadOrCreatePostgresSigningKey } from '../../server/storage/postgres/signing-key-postgres.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { cryptoRandom } from '../../server/support/random.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';

after(stopTestPostgres);

describe('the signing key in PostgreSQL', () => {
  test('instances starting together on an empty database end up with one key, which every later start reads', async () => {
    const database = await freshDatabase();
    const clock = new ManualClock(1_700_000_000_000);
    // Two pools: two instances, each with its own connections.
    const errors: unknown[] = [];
    const a = new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) });
    const b = new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) });
    try {
      await runMigrations(a, POSTGRES_MIGRATIONS, clock);
      const keys = await Promise.all([
        ...Array.from({ length: 4 }, () => loadOrCreatePostgresSigningKey(a, cryptoRandom, clock)),
        ...Array.from({ length: 4 }, () => loadOrCreatePostgresSigningKey(b, cryptoRandom, clock)),
      ]);
      assert.equal(keys[0]!.length, 32);
      for (const k of keys) assert.deepEqual(Buffer.from(k), Buffer.from(keys[0]!));
      assert.deepEqual(
        Buffer.from(await loadOrCreatePostgresSigningKey(b, cryptoRandom, clock)),
        Buffer.from(keys[0]!),
      );
      assert.deepEqual(await a.query('SELECT count(*)::int AS n FROM signing_key'), [{ n: 1 }]);
      assert.deepEqual(errors, [], 'no pooled connection failed');
    } finally {
      await a.close();
      await b.close();
      // After the check: the drop may still reach a connection a pool has just ended.
      await database.drop();
    }
  });

  test('a damaged key stops start-up with a sentence instead of signing with it', async () => {
    const database = await freshDatabase();
    const clock = new ManualClock(1_700_000_000_000);
    const errors: unknown[] = [];
    const db = new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) });
    try {
      await runMigrations(db, POSTGRES_MIGRATIONS, clock);
      await db.query("INSERT INTO signing_key (id, key, created_at) VALUES (1, '\\x0102', 0)");
      await assert.rejects(loadOrCreatePostgresSigningKey(db, cryptoRandom, clock), {
        message: 'The signing key in the database is damaged (expected 32 bytes).',
      });
      assert.deepEqual(errors, [], 'no pooled connection failed');
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
