import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SNAPSHOT_FILE } from '../../../server/store/journal-files.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import type { FeatureMigrations, WriteOp } from '../../../server/store/store-types.ts';
import { ITEMS_TABLE } from '../../helpers/items-table.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-compact-');
const MiB = 1024 * 1024;
const migrations: FeatureMigrations[] = [{ feature: 'items', migrations: [ITEMS_TABLE] }];
const insert = (name: string): WriteOp[] => [
  { sql: 'INSERT INTO items (name, data) VALUES (?, randomblob(?))', params: [name, MiB] },
];

/** A store of eight 1-MiB rows, of which `deleted` are deleted again, checkpointed and closed. */
async function storeWithDeleted(deleted: number): Promise<string> {
  const dir = await tempDir();
  const store = await SqljsStore.open({ dir, migrations });
  try {
    for (let i = 0; i < 8; i++) await store.write(insert(`row ${i}`), 'applied');
    await store.write([{ sql: 'DELETE FROM items WHERE name < ?', params: [`row ${deleted}`] }], 'applied');
    await store.checkpoint();
  } finally {
    await store.close();
  }
  return dir;
}

const freePages = async (store: SqljsStore): Promise<number> =>
  Number((await store.get<{ n: number }>('SELECT freelist_count AS n FROM pragma_freelist_count'))?.n);

describe('the store rebuilds a database that is mostly free pages when it opens', () => {
  test('three quarters deleted: the free pages are given back, the rows stay, and the next snapshot is smaller', async () => {
    const dir = await storeWithDeleted(6);
    const before = (await stat(join(dir, SNAPSHOT_FILE))).size;
    let loaded: number | null = null;
    const store = await SqljsStore.open({ dir, migrations, onLoad: (info) => (loaded = info.compactedBytes) });
    try {
      assert.ok(store.openInfo.compactedBytes >= 5 * MiB, `${store.openInfo.compactedBytes} bytes given back`);
      assert.equal(loaded, store.openInfo.compactedBytes);
      assert.equal(await freePages(store), 0);
      assert.deepEqual(await store.all('SELECT name, LENGTH(data) AS bytes FROM items ORDER BY name'), [
        { name: 'row 6', bytes: MiB },
        { name: 'row 7', bytes: MiB },
      ]);
      await store.checkpoint();
      const after = (await stat(join(dir, SNAPSHOT_FILE))).size;
      assert.ok(after <= before - 5 * MiB, `snapshot ${before} -> ${after} bytes`);
    } finally {
      await store.close();
    }
  });

  test('an eighth deleted (1 MiB of free pages): left as it is, for new rows to reuse', async () => {
    const dir = await storeWithDeleted(1);
    const store = await SqljsStore.open({ dir, migrations });
    try {
      assert.equal(store.openInfo.compactedBytes, 0);
      assert.ok((await freePages(store)) > 0);
    } finally {
      await store.close();
    }
  });
});
