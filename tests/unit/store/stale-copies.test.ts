import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { ITEMS_TABLE } from '../../helpers/items-table.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SMALL_FILE, StaleCopies, fullCollection } from '../../../server/store/stale-copies.ts';
import type { FeatureMigrations, WriteOp } from '../../../server/store/store-types.ts';

const MiB = 1024 * 1024;

describe('stale copies: the store worker frees copies of the database at once', () => {
  test('fullCollection collects what nothing refers to, and leaves no global gc behind', async () => {
    const collect = fullCollection();
    const ref = ((): WeakRef<object> => new WeakRef({ big: new Uint8Array(1024) }))();
    // A WeakRef's target is kept until the end of the turn that made it.
    await nextTurn();
    collect();
    assert.equal(ref.deref(), undefined);
    assert.equal(runInNewContext('typeof gc'), 'undefined');
  });

  test('collectIfGrown collects once a file of 16 MiB or more has grown by more than a sixteenth since the last collection', () => {
    let bytes = 10 * MiB;
    let collected = 0;
    const copies = new StaleCopies(
      () => collected++,
      () => [bytes],
    );
    copies.collectNow();
    assert.deepEqual([collected, copies.collections], [1, 1]);
    bytes = SMALL_FILE - 1; // more than a sixteenth larger, but small
    copies.collectIfGrown();
    assert.equal(collected, 1);
    bytes = SMALL_FILE;
    copies.collectIfGrown();
    assert.equal(collected, 2);
    bytes = 17 * MiB; // exactly a sixteenth more: not yet
    copies.collectIfGrown();
    assert.equal(collected, 2);
    bytes = 17 * MiB + 1;
    copies.collectIfGrown();
    assert.equal(collected, 3);
    // Measured from the last collection now, not from the first.
    bytes = 18 * MiB;
    copies.collectIfGrown();
    assert.deepEqual([collected, copies.collections], [3, 3]);
  });

  test('collectIfGrown watches each file on its own: a small one growing by a sixteenth beside a large one that does not', () => {
    const sizes = [160 * MiB, 32 * MiB];
    let collected = 0;
    const copies = new StaleCopies(
      () => collected++,
      () => sizes,
    );
    copies.collectNow();
    // 3 MiB more in the small file: a sixteenth of it (not yet), a 64th of the two together.
    sizes[1] = 34 * MiB;
    copies.collectIfGrown();
    assert.equal(collected, 1);
    sizes[1] = 34 * MiB + 1;
    copies.collectIfGrown();
    assert.equal(collected, 2);
    sizes[0] = 170 * MiB; // the large one: exactly a sixteenth, not yet
    copies.collectIfGrown();
    assert.equal(collected, 2);
    sizes[0] = 170 * MiB + 1;
    copies.collectIfGrown();
    assert.equal(collected, 3);
  });

  describe('in a real store', () => {
    const tempDir = tempDirs('hookscope-stale-copies-');
    const migrations: FeatureMigrations[] = [{ feature: 'items', migrations: [ITEMS_TABLE] }];
    const insert = (name: string, bytes: number): WriteOp[] => [
      { sql: 'INSERT INTO items (name, data) VALUES (?, randomblob(?))', params: [name, bytes] },
    ];

    test('the worker collects after open, after writes that grow a file of 16 MiB or more, and before and after each export of a checkpoint', async () => {
      const store = await SqljsStore.open({ dir: await tempDir(), migrations });
      try {
        assert.equal((await store.workerMemory()).collections, 1);
        await store.write(insert('a small file', 4 * MiB), 'applied');
        assert.equal((await store.workerMemory()).collections, 1);
        await store.write(insert('past 16 MiB', 16 * MiB), 'applied');
        assert.equal((await store.workerMemory()).collections, 2);
        await store.write(insert('a little more', 10), 'applied');
        assert.equal((await store.workerMemory()).collections, 2);
        await store.checkpoint();
        // Before the exports, and after each of the two (the main database's, the aux one's).
        assert.equal((await store.workerMemory()).collections, 5);
      } finally {
        await store.close();
      }
    });

    test("after a checkpoint the worker holds one copy of the database, not the export's as well", async () => {
      const store = await SqljsStore.open({ dir: await tempDir(), migrations });
      try {
        for (let i = 0; i < 24; i++) await store.write(insert(`row ${i}`, MiB), 'durable');
        const { bytes } = await store.checkpoint();
        assert.ok(bytes > 24 * MiB, `the database is ${bytes} bytes`);
        // The collection has run; the freed buffers leave the count when V8's sweeper
        // gets to them, a moment later. Without the collection nothing frees the export.
        let held = (await store.workerMemory()).arrayBuffers;
        for (let i = 0; i < 100 && held > 1.5 * bytes; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          held = (await store.workerMemory()).arrayBuffers;
        }
        assert.ok(held < 1.5 * bytes, `the worker holds ${held} bytes of ArrayBuffers for a ${bytes}-byte database`);
      } finally {
        await store.close();
      }
    });
  });
});
