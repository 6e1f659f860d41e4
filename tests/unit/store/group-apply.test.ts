import assert from 'node:assert/strict';
import { abandon } from '../../helpers/abandon-store.ts';
import { ITEMS_TABLE } from '../../helpers/items-table.ts';
import { afterEach, describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import { SqljsStore, type SqljsStoreOptions } from '../../../server/store/sqljs-store.ts';
import type { FeatureMigrations, WriteOp } from '../../../server/store/store-types.ts';

// A counter the coalesced op bumps: how many times the worker ran it is what these tests read.
const migrations: FeatureMigrations[] = [
  {
    feature: 'items',
    migrations: [
      ITEMS_TABLE,
      {
        number: 2,
        name: 'runs',
        sql: `CREATE TABLE runs (key TEXT PRIMARY KEY, n INTEGER NOT NULL);
              CREATE TABLE seen (key TEXT NOT NULL, items INTEGER NOT NULL);`,
      },
    ],
  },
];

const tempDir = tempDirs('hookscope-group-');

// Stores a test opened, closed after it even when an assertion failed (a live worker keeps the run alive).
const opened: SqljsStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
});
async function open(options: Omit<SqljsStoreOptions, 'dir'> & { dir: string }): Promise<SqljsStore> {
  const store = await SqljsStore.open({ ...options, migrations });
  opened.push(store);
  return store;
}

const insert = (name: string): WriteOp => ({ sql: 'INSERT INTO items (name) VALUES (?)', params: [name] });
/** Coalesced: bumps the key's counter and notes how many items existed when it ran. */
const cleanup = (key: string): WriteOp[] => [
  {
    sql: 'INSERT INTO runs (key, n) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET n = n + 1',
    params: [key],
    coalesce: true,
  },
  {
    sql: 'INSERT INTO seen (key, items) VALUES (?, (SELECT COUNT(*) FROM items))',
    params: [key],
    coalesce: true,
  },
];

async function runs(store: SqljsStore): Promise<Record<string, number>> {
  const rows = await store.all<{ key: string; n: number }>('SELECT key, n FROM runs ORDER BY key');
  return Object.fromEntries(rows.map((r) => [r.key, r.n]));
}

describe('records applied in groups', () => {
  test('records journaled together run each distinct coalesced op once, after all their statements', async () => {
    const dir = await tempDir();
    const store = await open({ dir });
    // Ten writes in one turn: one journal group, posted to the worker as one message.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.write([insert(`i${i}`), ...cleanup(i % 2 ? 'odd' : 'even')], 'durable'),
      ),
    );
    assert.deepEqual(await runs(store), { even: 1, odd: 1 });
    // Run after the group's inserts: both saw all ten items.
    assert.deepEqual(await store.all('SELECT key, items FROM seen ORDER BY key'), [
      { key: 'even', items: 10 },
      { key: 'odd', items: 10 },
    ]);
    await store.close();
  });

  test('a write waited for on its own is its own group', async () => {
    const dir = await tempDir();
    const store = await open({ dir });
    for (let i = 0; i < 3; i++) await store.write([insert(`i${i}`), ...cleanup('k')]);
    assert.deepEqual(await runs(store), { k: 3 });
    await store.close();
  });

  test('a record that fails brings no clean-up; the others in its group are applied', async () => {
    const dir = await tempDir();
    const errors: string[] = [];
    const store = await open({ dir, onError: (e) => errors.push(e.message) });
    await store.write([insert('dup')]);
    const results = await Promise.allSettled([
      store.write([insert('a'), ...cleanup('a')], 'applied'),
      store.write([insert('dup'), ...cleanup('failed')], 'applied'),
      store.write([insert('b'), ...cleanup('b')], 'applied'),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(await runs(store), { a: 1, b: 1 });
    assert.deepEqual(
      (await store.all<{ name: string }>('SELECT name FROM items ORDER BY name')).map((r) => r.name),
      ['a', 'b', 'dup'],
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /^write \d+ was not applied: UNIQUE constraint failed/);
    await store.close();
  });

  test('a failing clean-up is reported as a warning and the records it followed stay applied', async () => {
    const dir = await tempDir();
    const errors: string[] = [];
    const store = await open({ dir, onError: (e) => errors.push(e.message) });
    const broken: WriteOp = { sql: 'INSERT INTO nowhere VALUES (?)', params: [1], coalesce: true };
    const seqs = await Promise.all([store.write([insert('x'), broken]), store.write([insert('y'), broken])]);
    assert.equal(seqs.length, 2);
    assert.equal((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n, 2);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /^a clean-up after write \d+ failed: no such table: nowhere$/);
    await store.close();
  });

  test('a guarded op runs only when its query is true, and the guard holds in replay after a crash', async () => {
    const dir = await tempDir();
    const store = await open({ dir });
    // Bumps 'big' once the table holds more than `over` items, as retention evicts past a limit.
    const guarded = (over: number): WriteOp => ({
      ...cleanup('big')[0]!,
      when: { sql: 'SELECT COUNT(*) > ? FROM items', params: [over] },
    });
    await store.write([insert('a'), guarded(2)]);
    await store.write([insert('b'), guarded(2)]);
    assert.deepEqual(await runs(store), {});
    await store.write([insert('c'), guarded(2)]);
    assert.deepEqual(await runs(store), { big: 1 });
    // A guard whose value is NULL (no row) is false too.
    await store.write([
      insert('d'),
      { ...cleanup('none')[0]!, when: { sql: 'SELECT 1 FROM items WHERE name = ?', params: ['zz'] } },
    ]);
    assert.deepEqual(await runs(store), { big: 1 });
    await Promise.all([
      store.write([insert('e'), guarded(10)], 'durable'),
      store.write([insert('f'), guarded(5)], 'durable'),
    ]);
    opened.splice(opened.indexOf(store), 1);
    await abandon(store);
    const reopened = await open({ dir });
    // The snapshot is the migrations' only: every record replays, each guard judged again.
    assert.equal(reopened.openInfo.replayed, 6);
    // Replayed as one group: 'big' once for guarded(2) and once for guarded(5) (6 items); guarded(10) not.
    assert.deepEqual(await runs(reopened), { big: 2 });
    await reopened.close();
  });

  test('coalesced ops are journaled with their flag and replayed after a crash', async () => {
    const dir = await tempDir();
    const store = await open({ dir });
    await Promise.all(Array.from({ length: 5 }, (_, i) => store.write([insert(`i${i}`), ...cleanup('k')], 'durable')));
    opened.splice(opened.indexOf(store), 1);
    await abandon(store);
    const reopened = await open({ dir });
    assert.equal(reopened.openInfo.replayed, 5);
    // Replay applies the five records as one group: one run, after all five inserts.
    assert.deepEqual(await runs(reopened), { k: 1 });
    assert.deepEqual(await reopened.all('SELECT key, items FROM seen'), [{ key: 'k', items: 5 }]);
    await reopened.close();
  });
});

describe('backpressure', () => {
  // A throttled worker (it sleeps 15 ms after each group) falls behind a burst of
  // durable writes; past the bound an acknowledgement waits for its record to apply.
  async function burst(maxUnappliedWrites: number | undefined): Promise<number> {
    const dir = await tempDir();
    const store = await open({ dir, applyDelayMs: 15, maxUnappliedWrites });
    let worst = 0;
    const acked: number[] = [];
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      // One write per turn, so each is its own journal group and its own group in the worker.
      await new Promise((r) => setImmediate(r));
      writes.push(
        store.write([insert(`i${i}`)], 'durable').then(() => {
          acked.push(i);
          // Every write so far has its seq (numbered at the call); those the worker has
          // applied are that many less the backlog. Acknowledged beyond them: not applied yet.
          const applied = writes.length - store.backlog;
          worst = Math.max(worst, acked.length - applied);
        }),
      );
    }
    await Promise.all(writes);
    assert.equal(acked.length, 40);
    assert.equal((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n, 40);
    await store.close();
    return worst;
  }

  test('past the bound, acknowledgements wait for the worker instead of the backlog growing', async () => {
    const bounded = await burst(4);
    assert.ok(bounded <= 4, `acknowledged and not applied at some point: ${bounded}, bound 4`);
    // The same burst without the bound: the backlog at some acknowledgement is far larger,
    // so the assertion above measures the bound and not the burst's shape.
    const unbounded = await burst(Number.MAX_SAFE_INTEGER);
    assert.ok(unbounded >= 20, `without a bound only ${unbounded} were acknowledged ahead of the worker`);
  });
});
