import assert from 'node:assert/strict';
import { appendFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { abandon } from '../../helpers/abandon-store.ts';
import { ITEMS_TABLE } from '../../helpers/items-table.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import type { FeatureMigrations } from '../../../server/store/store-types.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const migrations: FeatureMigrations[] = [
  {
    feature: 'items',
    migrations: [ITEMS_TABLE, { number: 2, name: 'items_note', sql: 'ALTER TABLE items ADD COLUMN note TEXT' }],
  },
];

const tempDir = tempDirs('hookscope-store-');

const insert = (name: string, data: Uint8Array | null = null) => [
  { sql: 'INSERT INTO items (name, data) VALUES (?, ?)', params: [name, data] },
];

describe('SqljsStore', () => {
  test('applies migrations once, in number order, and records them by feature and number', async () => {
    const dir = await tempDir();
    let store = await SqljsStore.open({ dir, migrations });
    await store.write([{ sql: 'INSERT INTO items (name, note) VALUES (?, ?)', params: ['a', 'n'] }]);
    await store.close();
    // Re-opening must not re-run the ALTER TABLE (it would fail: duplicate column).
    store = await SqljsStore.open({ dir, migrations });
    assert.deepEqual(await store.all('SELECT feature, number, name FROM migrations ORDER BY feature, number'), [
      { feature: 'items', number: 1, name: 'items' },
      { feature: 'items', number: 2, name: 'items_note' },
    ]);
    assert.equal((await store.get<{ note: string }>('SELECT note FROM items'))?.note, 'n');
    await store.close();
  });

  test('a failing migration stops the open with a message naming it', async () => {
    const dir = await tempDir();
    await assert.rejects(
      SqljsStore.open({
        dir,
        migrations: [
          ...migrations,
          { feature: 'other', migrations: [{ number: 1, name: 'broken', sql: 'CREATE TABLEX nope' }] },
        ],
      }),
      /migration other 1 \(broken\) failed/,
    );
  });

  test('recovers acknowledged writes from the journal when the process dies without a checkpoint', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations });
    const writes = [];
    for (let i = 0; i < 500; i++)
      writes.push(store.write(insert(`item-${i}`, Buffer.from([i & 255, 0, 255])), 'durable'));
    await Promise.all(writes);
    // Simulate a crash: no checkpoint, no clean close of the worker.
    await abandon(store);
    assert.ok(!(await readdir(dir)).includes('hookscope.db'), 'no snapshot was written');

    const reopened = await SqljsStore.open({ dir, migrations });
    assert.equal(reopened.openInfo.replayed, 500);
    assert.equal((await reopened.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n, 500);
    const row = await reopened.get<{ data: Uint8Array }>("SELECT data FROM items WHERE name = 'item-7'");
    assert.deepEqual([...row!.data], [7, 0, 255]);
    await reopened.close();
  });

  test('drops a torn journal tail and keeps everything before it', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations });
    for (let i = 0; i < 10; i++) await store.write(insert(`x${i}`));
    await abandon(store);
    const segments = (await readdir(join(dir))).filter((f) => f.startsWith('journal-')).sort();
    const last = join(dir, segments[segments.length - 1]!);
    const before = (await stat(last)).size;
    await appendFile(last, Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5])); // half a frame
    const reopened = await SqljsStore.open({ dir, migrations });
    assert.equal(reopened.openInfo.tornBytes, 9);
    assert.equal(
      (await stat(last)).size,
      before,
      'the torn bytes are cut off so later appends are not hidden behind them',
    );
    assert.equal((await reopened.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n, 10);
    await reopened.write(insert('after'));
    await abandon(reopened);
    const third = await SqljsStore.open({ dir, migrations });
    assert.equal((await third.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n, 11);
    await third.close();
  });

  test('a checkpoint writes a snapshot and removes the journal it covers; replay is idempotent', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations });
    for (let i = 0; i < 20; i++) await store.write(insert(`c${i}`));
    const result = await store.checkpoint();
    assert.ok(result.bytes > 0);
    assert.equal(result.lastSeq, 20);
    const files = await readdir(dir);
    assert.ok(files.includes('hookscope.db'));
    for (let i = 20; i < 25; i++) await store.write(insert(`c${i}`));
    await abandon(store);
    const reopened = await SqljsStore.open({ dir, migrations });
    assert.equal(reopened.openInfo.replayed, 5, 'only the writes after the snapshot are replayed');
    assert.equal((await reopened.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n, 25);
    await reopened.close();
  });

  test('checkpoints on its own once the interval has passed on the injected clock', async () => {
    const dir = await tempDir();
    const clock = new ManualClock(1_000_000);
    const store = await SqljsStore.open({ dir, migrations, clock, checkpointIntervalMs: 60_000 });
    await store.write(insert('t1'));
    await (store as unknown as { maybeCheckpoint(): Promise<void> }).maybeCheckpoint();
    assert.ok(!(await readdir(dir)).includes('hookscope.db'), 'not yet due');
    clock.advance(60_000);
    await (store as unknown as { maybeCheckpoint(): Promise<void> }).maybeCheckpoint();
    assert.ok((await readdir(dir)).includes('hookscope.db'), 'due: snapshot written');
    await store.close();
  });

  test('a statement that fails is reported to the writer and leaves no partial record', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations, onError: () => undefined });
    await store.write(insert('dup'));
    await assert.rejects(
      store.write([
        { sql: 'INSERT INTO items (name) VALUES (?)', params: ['fresh'] },
        { sql: 'INSERT INTO items (name) VALUES (?)', params: ['dup'] },
      ]),
      /UNIQUE/,
    );
    assert.equal((await store.get<{ n: number }>("SELECT COUNT(*) AS n FROM items WHERE name = 'fresh'"))?.n, 0);
    await store.close();
  });

  test('batch runs its reads in order in one message: rows, a row or undefined, as asked', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations });
    await store.write([...insert('b1'), ...insert('b2')]);
    const [rows, count, none] = await store.batch([
      { sql: 'SELECT name FROM items ORDER BY id' },
      { sql: 'SELECT COUNT(*) AS n FROM items WHERE name LIKE ?', params: ['b%'], one: true },
      { sql: 'SELECT name FROM items WHERE name = ?', params: ['missing'], one: true },
    ]);
    assert.deepEqual(rows, [{ name: 'b1' }, { name: 'b2' }]);
    assert.deepEqual(count, { n: 2 });
    assert.equal(none, undefined);
    await assert.rejects(
      store.batch([{ sql: 'SELECT name FROM items' }, { sql: 'SELECT nope FROM items' }]),
      /no such column: nope/,
    );
    await store.close();
  });

  test('strict sync acknowledges only after fdatasync and still round-trips', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations, sync: 'strict' });
    await Promise.all([store.write(insert('s1'), 'durable'), store.write(insert('s2'), 'durable')]);
    await abandon(store);
    const reopened = await SqljsStore.open({ dir, migrations });
    assert.equal((await reopened.get<{ n: number }>('SELECT COUNT(*) AS n FROM items'))?.n, 2);
    await reopened.close();
  });
});
