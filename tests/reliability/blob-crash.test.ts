import assert from 'node:assert/strict';
import { appendFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { abandon } from '../helpers/abandon-store.ts';
import { afterEach, describe, test } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';
import { BLOB_FILE_BYTES, blobFileName } from '../../server/store/blob-files.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import type { BlobColumns, FeatureMigrations, WriteOp } from '../../server/store/store-types.ts';

// Values spilled out of the database (log bodies) must survive what the journal
// survives: a kill before any checkpoint, a kill after one with writes since, torn
// journal tails, and checkpoint cycles that delete blob files no row refers to.
const migrations: FeatureMigrations[] = [
  {
    feature: 'docs',
    migrations: [
      {
        number: 1,
        name: 'docs',
        sql: 'CREATE TABLE docs (name TEXT PRIMARY KEY, body BLOB, location INTEGER, length INTEGER)',
      },
    ],
  },
];
const BLOB: BlobColumns = { location: 'location', length: 'length', into: 'body' };
const tempDir = tempDirs('hookscope-blob-crash-');
const opened: SqljsStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
});
async function open(dir: string): Promise<SqljsStore> {
  const store = await SqljsStore.open({ dir, migrations, onError: () => undefined });
  opened.push(store);
  return store;
}
async function crash(store: SqljsStore): Promise<void> {
  opened.splice(opened.indexOf(store), 1);
  await abandon(store);
}

/** A body that differs in every byte position from its neighbours', so a shifted read shows. */
const bodyOf = (name: string, size: number): Buffer => {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + name.length * 7 + name.charCodeAt(name.length - 1)) & 255;
  b.write(name, 0, 'latin1');
  return b;
};
const put = (name: string, body: Buffer): WriteOp[] => [
  {
    sql: 'INSERT INTO docs (name, body, length, location) VALUES (?1, NULL, ?2, ?3)',
    params: [name, body.length],
    spill: body,
  },
];
async function bodies(store: SqljsStore): Promise<Map<string, Buffer>> {
  const rows = await store.all<{ name: string; body: Uint8Array }>(
    'SELECT name, location, length FROM docs ORDER BY name',
    [],
    BLOB,
  );
  return new Map(rows.map((r) => [r.name, Buffer.from(r.body)]));
}
const blobFiles = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => f.startsWith('blobs-')).sort();

describe('spilled values and crashes', () => {
  test('a kill before any checkpoint: replay writes every acknowledged body again, byte for byte', async () => {
    const dir = await tempDir();
    const store = await open(dir);
    const expected = new Map<string, Buffer>();
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const body = bodyOf(`d${i}`, 100 + i * 13);
        expected.set(`d${i}`, body);
        return store.write(put(`d${i}`, body), 'durable');
      }),
    );
    await crash(store);
    const again = await open(dir);
    assert.equal(again.openInfo.replayed, 200);
    assert.deepEqual(await bodies(again), expected);
  });

  test('a kill after a checkpoint: bytes written since are cut off and replayed at the same places', async () => {
    const dir = await tempDir();
    const store = await open(dir);
    const expected = new Map<string, Buffer>();
    for (let i = 0; i < 20; i++) {
      expected.set(`a${i}`, bodyOf(`a${i}`, 1000));
      await store.write(put(`a${i}`, expected.get(`a${i}`)!));
    }
    await store.checkpoint();
    const atCheckpoint = (await stat(join(dir, blobFileName(1)))).size;
    assert.equal(atCheckpoint, 20 * 1000);
    for (let i = 0; i < 30; i++) {
      expected.set(`b${i}`, bodyOf(`b${i}`, 500));
      await store.write(put(`b${i}`, expected.get(`b${i}`)!), 'durable');
    }
    await store.get('SELECT 1'); // every record applied: the blob file holds all 50
    await crash(store);
    assert.equal((await stat(join(dir, blobFileName(1)))).size, 20 * 1000 + 30 * 500);

    const again = await open(dir);
    assert.equal(again.openInfo.blobBytesCut, 30 * 500);
    assert.equal(again.openInfo.replayed, 30);
    assert.equal((await stat(join(dir, blobFileName(1)))).size, 20 * 1000 + 30 * 500);
    assert.deepEqual(await bodies(again), expected);
  });

  test('a torn journal tail drops only the torn record; its body bytes are cut as well', async () => {
    const dir = await tempDir();
    const store = await open(dir);
    await store.write(put('kept', bodyOf('kept', 300)));
    await store.checkpoint();
    await store.write(put('after', bodyOf('after', 400)));
    await store.get('SELECT 1');
    await crash(store);
    const segments = (await readdir(dir)).filter((f) => f.startsWith('journal-')).sort();
    await appendFile(join(dir, segments[segments.length - 1]!), Buffer.from([0x40, 0, 0, 0, 1, 2, 3]));
    const again = await open(dir);
    assert.equal(again.openInfo.replayed, 1);
    assert.ok(again.openInfo.tornBytes > 0);
    assert.deepEqual([...(await bodies(again)).keys()], ['after', 'kept']);
    assert.deepEqual((await bodies(again)).get('after'), bodyOf('after', 400));
  });

  test('checkpoint cycles delete the blob files no row refers to and keep the others readable', async () => {
    const dir = await tempDir();
    let store = await open(dir);
    const big = BLOB_FILE_BYTES / 2;
    // Files 1-3 hold two bodies each; file 4 is current.
    for (let i = 0; i < 7; i++) await store.write(put(`n${i}`, bodyOf(`n${i}`, big)));
    assert.deepEqual(await blobFiles(dir), [1, 2, 3, 4].map(blobFileName));
    // Nothing left in file 1; one body left in file 2; file 3 untouched.
    await store.write([{ sql: "DELETE FROM docs WHERE name IN ('n0', 'n1', 'n2')", params: [] }]);
    const result = await store.checkpoint();
    assert.equal(result.blobFilesDeleted, 1);
    assert.deepEqual(await blobFiles(dir), [2, 3, 4].map(blobFileName));
    await store.close();
    opened.splice(opened.indexOf(store), 1);

    store = await open(dir);
    const got = await bodies(store);
    assert.deepEqual([...got.keys()], ['n3', 'n4', 'n5', 'n6']);
    for (const [name, body] of got) assert.ok(body.equals(bodyOf(name, big)), `${name} reads back exactly`);
    // Everything in file 2 deleted too: gone at the next checkpoint, after a crash and recovery.
    await store.write([{ sql: "DELETE FROM docs WHERE name = 'n3'", params: [] }]);
    await crash(store);
    store = await open(dir);
    assert.equal((await store.checkpoint()).blobFilesDeleted, 1);
    assert.deepEqual(await blobFiles(dir), [3, 4].map(blobFileName));
    assert.deepEqual([...(await bodies(store)).keys()], ['n4', 'n5', 'n6']);
  });
});
