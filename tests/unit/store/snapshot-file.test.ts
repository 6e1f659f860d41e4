import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import {
  openSnapshot,
  readSnapshotPart,
  snapshotLayout,
  snapshotTrailer,
  TRAILER_BYTES,
} from '../../../server/store/snapshot-file.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-snapshot-file-');

/** A one-table database's bytes, as sql.js exports it. */
async function database(table: string, rows: number): Promise<Uint8Array> {
  const db = new (await initSqlJs()).Database();
  try {
    db.run(`CREATE TABLE ${table} (n INTEGER, pad TEXT)`);
    for (let i = 0; i < rows; i++) db.run(`INSERT INTO ${table} VALUES (?, ?)`, [i, 'x'.repeat(100)]);
    return db.export();
  } finally {
    db.close();
  }
}

describe('the snapshot file: two databases and a trailer', () => {
  test('the trailer names both lengths; a file of whole pages is a lone database', () => {
    const trailer = snapshotTrailer(3 * 8192, 8192);
    assert.equal(trailer.length, TRAILER_BYTES);
    assert.deepEqual(snapshotLayout(4 * 8192 + TRAILER_BYTES, trailer), { mainBytes: 3 * 8192, auxBytes: 8192 });
    // An empty aux database (a store with nothing in it) exports no bytes.
    assert.deepEqual(snapshotLayout(8192 + TRAILER_BYTES, snapshotTrailer(8192, 0)), { mainBytes: 8192, auxBytes: 0 });
    // The same last bytes in a file whose size is whole pages: a SQLite file, never split.
    assert.equal(snapshotLayout(5 * 8192, trailer), null);
    // Other last bytes: not a trailer.
    assert.equal(snapshotLayout(4 * 8192 + TRAILER_BYTES, Buffer.alloc(TRAILER_BYTES, 7)), null);
  });

  test('a trailer that does not add up to the file is refused with both lengths named', () => {
    assert.throws(
      () => snapshotLayout(4 * 8192 + TRAILER_BYTES - 100, snapshotTrailer(3 * 8192, 8192)),
      new Error(
        'the snapshot file is damaged: its trailer names 24576 + 8192 bytes of databases, and the file holds 32668',
      ),
    );
  });

  test('each database is read back exactly, and opened with the aux one attached to the main one', async () => {
    const dir = await tempDir();
    const main = await database('in_main', 200);
    const aux = await database('in_aux', 50);
    const path = join(dir, 'hookscope.db');
    await writeFile(path, Buffer.concat([main, aux, snapshotTrailer(main.length, aux.length)]));
    assert.deepEqual(readSnapshotPart(path, 'main'), Buffer.from(main));
    assert.deepEqual(readSnapshotPart(path, 'aux'), Buffer.from(aux));

    const opened = openSnapshot(await initSqlJs(), path);
    try {
      const one = (sql: string): unknown => opened.main.exec(sql)[0]!.values[0]![0];
      assert.equal(one('SELECT COUNT(*) FROM in_main'), 200);
      assert.equal(one('SELECT COUNT(*) FROM aux.in_aux'), 50);
      // What the main connection writes to the aux database is what sql.js's aux connection
      // exports, also after an export that read (and cached) the pages the writes change.
      const exportedCount = async (): Promise<unknown> => {
        const exported = new (await initSqlJs()).Database(opened.aux.export());
        try {
          return exported.exec('SELECT COUNT(*), SUM(n) FROM in_aux')[0]!.values[0];
        } finally {
          exported.close();
        }
      };
      opened.main.run('INSERT INTO aux.in_aux VALUES (-1, NULL)');
      assert.deepEqual(await exportedCount(), [51, 1224]);
      opened.main.run('DELETE FROM aux.in_aux WHERE n < 10');
      opened.main.run("UPDATE aux.in_aux SET n = n + 1000, pad = 'y' WHERE n >= 40");
      assert.deepEqual(await exportedCount(), [40, 11180]);
    } finally {
      opened.main.close();
      opened.aux.close();
    }
  });

  test('a lone SQLite file (a store written before the aux database) is the main database; the aux one starts empty', async () => {
    const dir = await tempDir();
    const path = join(dir, 'hookscope.db');
    const main = await database('old_table', 30);
    await writeFile(path, main);
    assert.deepEqual(readSnapshotPart(path, 'main'), Buffer.from(main));
    assert.equal(readSnapshotPart(path, 'aux'), null);
    const opened = openSnapshot(await initSqlJs(), path);
    try {
      assert.equal(opened.main.exec('SELECT COUNT(*) FROM old_table')[0]!.values[0]![0], 30);
      opened.main.run('CREATE TABLE aux.fresh (n)');
      assert.equal(opened.main.exec('PRAGMA aux.page_size')[0]!.values[0]![0], 8192);
    } finally {
      opened.main.close();
      opened.aux.close();
    }
  });

  test('no file: both databases are new, with 8 KB pages', async () => {
    const dir = await tempDir();
    const opened = openSnapshot(await initSqlJs(), join(dir, 'missing.db'));
    try {
      opened.main.run('CREATE TABLE a (n); CREATE TABLE aux.b (n);');
      assert.deepEqual(
        opened.main.exec('PRAGMA main.page_size; PRAGMA aux.page_size').map((r) => r.values[0]![0]),
        [8192, 8192],
      );
    } finally {
      opened.main.close();
      opened.aux.close();
    }
  });
});
