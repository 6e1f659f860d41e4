import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, test } from '../../helpers/node-test.ts';
import { Opened } from '../../helpers/opened.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import { BLOB_FILE_BYTES, blobFileName } from '../../../server/store/blob-files.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import type { BlobColumns, FeatureMigrations, WriteAck } from '../../../server/store/store-types.ts';
import { SeededRandom } from '../../../server/support/random.ts';

/**
 * Spilled values (a log's body) through the real store: written by the database
 * worker to the blob files, read back by the worker into the rows it answers,
 * byte for byte, before and after a checkpoint, a clean reopen and a crash.
 */

// Like log_bodies: the database row keeps an empty body, the length and the location.
const migrations: FeatureMigrations[] = [
  {
    feature: 'bodies',
    migrations: [
      {
        number: 1,
        name: 'bodies',
        sql: `CREATE TABLE bodies (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body BLOB NOT NULL,
              length INTEGER NOT NULL, location INTEGER)`,
      },
    ],
  },
];
const BLOB: BlobColumns = { location: 'location', length: 'length', into: 'body' };

const tempDir = tempDirs('hookscope-spill-');
const random = new SeededRandom(21);

/** Every byte value, then seeded noise: a mix-up of offset, length or encoding shows. */
const bytesOf = (n: number): Buffer => {
  const b = random.bytes(n);
  for (let i = 0; i < Math.min(n, 256); i++) b[i] = i;
  return b;
};

const BODIES = {
  tiny: bytesOf(1),
  page: bytesOf(4096 + 3),
  large: bytesOf(1024 * 1024 + 17),
  // Larger than a whole blob file: it gets a file of its own.
  huge: bytesOf(BLOB_FILE_BYTES + 5),
  empty: Buffer.alloc(0),
};
type Name = keyof typeof BODIES | 'afterCheckpoint' | 'afterReopen';
const LATER = { afterCheckpoint: bytesOf(70_001), afterReopen: bytesOf(333) };
const expected = (name: Name): Buffer =>
  name in LATER ? LATER[name as keyof typeof LATER] : BODIES[name as keyof typeof BODIES];

const write = (store: SqljsStore, name: Name, ack: WriteAck) =>
  store.write(
    [
      {
        // The worker binds the location last.
        sql: "INSERT INTO bodies (name, body, length, location) VALUES (?, X'', ?, ?)",
        params: [name, expected(name).length],
        spill: expected(name),
      },
    ],
    ack,
  );

/** Each body as the worker reads it back, checked byte for byte; also one batch read of all of them. */
async function assertReadBack(store: SqljsStore, names: Name[], when: string): Promise<void> {
  for (const name of names) {
    const row = await store.get<{ body: Uint8Array }>(
      'SELECT body, length, location FROM bodies WHERE name = ?',
      [name],
      BLOB,
    );
    assert.ok(row, `${when}: ${name} is there`);
    const got = Buffer.from(row.body);
    assert.equal(got.length, expected(name).length, `${when}: ${name}'s length`);
    assert.ok(got.equals(expected(name)), `${when}: ${name} comes back byte for byte`);
  }
  const rows = await store.all<{ name: Name; body: Uint8Array }>(
    'SELECT name, body, length, location FROM bodies ORDER BY id',
    [],
    BLOB,
  );
  assert.deepEqual(
    rows.map((r) => r.name),
    names,
  );
  for (const r of rows) assert.ok(Buffer.from(r.body).equals(expected(r.name)), `${when}: ${r.name} in a list read`);
  // The database itself holds none of the bytes: only where they are.
  const inline = await store.get<{ n: number }>('SELECT SUM(length(body)) AS n FROM bodies');
  assert.equal(inline?.n, 0, `${when}: no body bytes in the database`);
}

describe('spilled values through the store', () => {
  test('read back byte for byte through the worker, after a checkpoint, a clean reopen and a crash', async () => {
    const dir = await tempDir();
    const opened = new Opened();
    const openStore = async (): Promise<SqljsStore> => opened.add(await SqljsStore.open({ dir, migrations }));
    try {
      const store = await openStore();
      await write(store, 'tiny', 'durable');
      await write(store, 'page', 'applied');
      await write(store, 'large', 'durable');
      await write(store, 'huge', 'applied');
      await write(store, 'empty', 'applied');
      const first: Name[] = ['tiny', 'page', 'large', 'huge', 'empty'];
      await assertReadBack(store, first, 'as written');
      // The huge body made a file of its own; the next one starts another.
      assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith('blobs-')).sort(), [1, 2, 3].map(blobFileName));

      await store.checkpoint();
      await assertReadBack(store, first, 'after a checkpoint');
      // Only in the journal: the snapshot does not cover it.
      await write(store, 'afterCheckpoint', 'durable');
      await opened.close(store);

      const reopened = await openStore();
      const second: Name[] = [...first, 'afterCheckpoint'];
      await assertReadBack(reopened, second, 'after a clean reopen');
      await write(reopened, 'afterReopen', 'durable');
      await opened.abandon(reopened);

      const afterCrash = await openStore();
      assert.equal(afterCrash.openInfo.replayed, 1, 'the write after the reopen comes back from the journal');
      await assertReadBack(afterCrash, [...second, 'afterReopen'], 'after a crash');
      await opened.close(afterCrash);
    } finally {
      await opened.closeRest();
    }
  });
});
