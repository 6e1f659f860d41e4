import assert from 'node:assert/strict';
import {
  runMigrations,
  type AppliedMigration,
  type PostgresFeatureMigrations,
} from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { ADVISORY_LOCKS } from '../../server/storage/postgres/advisory-locks.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { waitFor } from '../helpers/wait-for.ts';

after(stopTestPostgres);

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const clock = () => new ManualClock(T0);

/**
 * Test features whose steps fail when applied twice (CREATE TABLE, a primary key).
 * The first one sleeps so that a second instance starting at the same moment
 * finds it under way: without the lock both would apply it.
 */
const SETS: PostgresFeatureMigrations[] = [
  ...POSTGRES_MIGRATIONS,
  {
    feature: 'alpha',
    migrations: [
      {
        number: 1,
        name: 'alpha table',
        sql: `SELECT pg_sleep(0.3);
              CREATE TABLE alpha (id integer PRIMARY KEY);
              INSERT INTO alpha VALUES (1);`,
      },
      { number: 2, name: 'alpha note', sql: 'ALTER TABLE alpha ADD COLUMN note text' },
    ],
  },
  {
    feature: 'beta',
    migrations: [{ number: 1, name: 'beta table', sql: 'CREATE TABLE beta (alpha_id integer REFERENCES alpha (id))' }],
  },
];

const ALL_STEPS: AppliedMigration[] = SETS.flatMap((s) =>
  s.migrations.map((m) => ({ feature: s.feature, number: m.number, name: m.name })),
);

/** Runs `fn` with `count` separate pools (as many engine instances) on a fresh database, and cleans up. */
async function withInstances(
  count: number,
  fn: (dbs: PostgresDatabase[], errors: unknown[]) => Promise<void>,
): Promise<void> {
  const database = await freshDatabase();
  const errors: unknown[] = [];
  const dbs = Array.from(
    { length: count },
    () => new PostgresDatabase({ url: database.url, onError: (e) => errors.push(e) }),
  );
  try {
    await fn(dbs, errors);
    assert.deepEqual(errors, []);
  } finally {
    for (const db of dbs) await db.close();
    await database.drop();
  }
}

const recorded = (db: PostgresDatabase) =>
  db.query<{ feature: string; number: number; name: string; applied_at: Date }>(
    'SELECT feature, number, name, applied_at FROM schema_migrations ORDER BY feature, number',
  );

const byKey = (a: AppliedMigration, b: AppliedMigration) =>
  a.feature === b.feature ? a.number - b.number : a.feature < b.feature ? -1 : 1;

describe('PostgreSQL migration runner', () => {
  test('two instances starting at once on an empty database both succeed, and each step is applied once', async () => {
    await withInstances(2, async ([first, second]) => {
      const [a, b] = await Promise.all([runMigrations(first!, SETS, clock()), runMigrations(second!, SETS, clock())]);
      // One of them applied everything, in list order; the other found it done.
      assert.deepEqual(
        [a.length, b.length].sort((x, y) => x - y),
        [0, ALL_STEPS.length],
      );
      assert.deepEqual([...a, ...b], ALL_STEPS);
      assert.deepEqual(
        (await recorded(first!)).map(({ feature, number, name }) => ({ feature, number, name })),
        [...ALL_STEPS].sort(byKey),
      );
      assert.deepEqual(await first!.query('SELECT id, note FROM alpha'), [{ id: 1, note: null }]);
    });
  });

  test('a second run applies nothing and changes no record', async () => {
    await withInstances(1, async ([db]) => {
      assert.equal((await runMigrations(db!, SETS, clock())).length, ALL_STEPS.length);
      const before = await recorded(db!);
      assert.deepEqual(await runMigrations(db!, SETS, new ManualClock(T0 + 60_000)), []);
      assert.deepEqual(await recorded(db!), before);
      assert.deepEqual(await db!.query('SELECT count(*)::integer AS n FROM alpha'), [{ n: 1 }]);
    });
  });

  test("each step is recorded with its feature, number, name and the clock's time", async () => {
    await withInstances(1, async ([db]) => {
      await runMigrations(db!, SETS, clock());
      const rows = await recorded(db!);
      assert.deepEqual(
        rows.map((r) => [r.feature, r.number, r.name, r.applied_at.getTime()]),
        [...ALL_STEPS].sort(byKey).map((s) => [s.feature, s.number, s.name, T0]),
      );
    });
  });

  test('a failing step stops the run naming it, leaves nothing of itself, and releases the lock', async () => {
    await withInstances(2, async ([failed, next]) => {
      const gamma = { number: 1, name: 'gamma table', sql: 'CREATE TABLE gamma (id integer)' };
      const broken = { number: 2, name: 'broken', sql: 'CREATE TABLE gamma_two (id integer); CREATE TABLEX nope' };
      await assert.rejects(runMigrations(failed!, [{ feature: 'gamma', migrations: [gamma, broken] }], clock()), {
        // PostgreSQL's own words follow (in the server's language).
        message: /^PostgreSQL migration gamma 2 \(broken\) failed: ./,
      });
      assert.deepEqual(
        (await recorded(next!)).map((r) => [r.feature, r.number]),
        [['gamma', 1]],
      );
      assert.deepEqual(await next!.query("SELECT to_regclass('gamma_two') AS t"), [{ t: null }]);
      // Another instance can take the lock (its connection went with the failed run), then applies the fixed list.
      // The wait stays under the pool's 10 s idle timeout, which would end a connection kept by mistake anyway.
      await waitFor(
        'the migration lock to be free',
        async () => {
          const [row] = await next!.query<{ got: boolean }>(
            'SELECT pg_try_advisory_lock($1, $2) AS got',
            ADVISORY_LOCKS.migrations,
          );
          return row!.got;
        },
        5_000,
      );
      await next!.query('SELECT pg_advisory_unlock($1, $2)', ADVISORY_LOCKS.migrations);
      const fixed = { ...broken, sql: 'CREATE TABLE gamma_two (id integer)' };
      assert.deepEqual(await runMigrations(next!, [{ feature: 'gamma', migrations: [gamma, fixed] }], clock()), [
        { feature: 'gamma', number: 2, name: 'broken' },
      ]);
    });
  });

  test('a step and its record commit together', async () => {
    await withInstances(1, async ([db]) => {
      // A step whose own SQL succeeds but that makes its record fail.
      const sabotage = {
        number: 1,
        name: 'refuses its record',
        sql: `CREATE TABLE delta (id integer);
              ALTER TABLE schema_migrations ADD CONSTRAINT not_delta CHECK (feature <> 'delta');`,
      };
      await assert.rejects(runMigrations(db!, [{ feature: 'delta', migrations: [sabotage] }], clock()), {
        message: /^PostgreSQL migration delta 1 \(refuses its record\) failed: ./,
      });
      assert.deepEqual(await db!.query("SELECT to_regclass('delta') AS t"), [{ t: null }]);
      assert.deepEqual(await recorded(db!), []);
    });
  });

  test('a step recorded by a newer version is left alone (rolling updates)', async () => {
    await withInstances(1, async ([db]) => {
      await runMigrations(db!, SETS, clock());
      await db!.query("INSERT INTO schema_migrations VALUES ('alpha', 3, 'from a newer version', now())");
      assert.deepEqual(await runMigrations(db!, SETS, clock()), []);
      assert.equal((await recorded(db!)).length, ALL_STEPS.length + 1);
    });
  });

  test('a list with a gap, or a feature twice, is refused before the database is touched', async () => {
    await withInstances(1, async ([db]) => {
      const step = { number: 1, name: 'one', sql: 'CREATE TABLE one (id integer)' };
      await assert.rejects(
        runMigrations(db!, [{ feature: 'alpha', migrations: [step, { ...step, number: 3 }] }], clock()),
        { message: 'migrations: alpha 3 (one) is number 2 in its list' },
      );
      await assert.rejects(
        runMigrations(
          db!,
          [
            { feature: 'alpha', migrations: [step] },
            { feature: 'alpha', migrations: [] },
          ],
          clock(),
        ),
        { message: 'migrations: feature "alpha" is listed twice' },
      );
      assert.deepEqual(await db!.query("SELECT to_regclass('schema_migrations') AS t"), [{ t: null }]);
    });
  });
});
