import assert from 'node:assert/strict';
import { readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import {
  BLOB_FILE_BYTES,
  BlobFiles,
  blobFileName,
  blobFileOf,
  blobLocation,
  readWindow,
} from '../../../server/store/blob-files.ts';

const tempDir = tempDirs('hookscope-blobs-');
const bytes = (n: number, fill: number): Buffer => Buffer.alloc(n, fill);
const files = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => f.startsWith('blobs-')).sort();

describe('blob files', () => {
  test('a location is file * 2^32 + offset, and reads give back the exact bytes', async () => {
    const dir = await tempDir();
    const blobs = new BlobFiles(dir);
    blobs.open({ file: 1, size: 0 });
    const a = blobs.append(Buffer.from('first'));
    const b = blobs.append(Buffer.from([0, 255, 10, 13]));
    const empty = blobs.append(Buffer.alloc(0));
    assert.deepEqual([a, b, empty], [blobLocation(1, 0), blobLocation(1, 5), blobLocation(1, 9)]);
    assert.equal(blobLocation(3, 7), 3 * 2 ** 32 + 7);
    assert.equal(blobFileOf(blobLocation(3, 7)), 3);
    assert.equal(Buffer.from(blobs.read(a, 5)).toString(), 'first');
    assert.deepEqual([...blobs.read(b, 4)], [0, 255, 10, 13]);
    assert.equal(blobs.read(empty, 0).length, 0);
    assert.deepEqual(blobs.end, { file: 1, size: 9 });
    blobs.close();
  });

  test('a blob that would take the file past its size starts the next file; a larger one gets a file to itself', async () => {
    const dir = await tempDir();
    const blobs = new BlobFiles(dir);
    blobs.open({ file: 1, size: 0 });
    const half = BLOB_FILE_BYTES / 2;
    const a = blobs.append(bytes(half, 1));
    const b = blobs.append(bytes(half, 2)); // exactly fills file 1
    const c = blobs.append(bytes(1, 3)); // would pass it: file 2
    const big = blobs.append(bytes(BLOB_FILE_BYTES + 10, 4)); // file 3, alone
    const d = blobs.append(bytes(1, 5)); // file 4
    assert.deepEqual(
      [a, b, c, big, d].map((l) => [blobFileOf(l), l % 2 ** 32]),
      [
        [1, 0],
        [1, half],
        [2, 0],
        [3, 0],
        [4, 0],
      ],
    );
    assert.equal(blobs.read(big, BLOB_FILE_BYTES + 10)[BLOB_FILE_BYTES + 9], 4);
    assert.deepEqual([...blobs.read(d, 1)], [5]); // read before the pending write is flushed: flushes first
    assert.deepEqual(await files(dir), [1, 2, 3, 4].map(blobFileName));
    blobs.close();
  });

  test('open cuts the current file back to the recorded end and deletes the files after it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, blobFileName(1)), bytes(100, 1));
    await writeFile(join(dir, blobFileName(2)), bytes(50, 2));
    await writeFile(join(dir, blobFileName(3)), bytes(7, 3));
    const blobs = new BlobFiles(dir);
    assert.deepEqual(blobs.open({ file: 2, size: 20 }), { cutBytes: 30 + 7 });
    assert.deepEqual(await files(dir), [blobFileName(1), blobFileName(2)]);
    assert.equal((await stat(join(dir, blobFileName(1)))).size, 100);
    assert.equal((await stat(join(dir, blobFileName(2)))).size, 20);
    // The next append lands exactly where the snapshot said the files ended.
    assert.equal(blobs.append(Buffer.from('x')), blobLocation(2, 20));
    blobs.close();
  });

  test('reclaim deletes earlier files no row refers to, never a live one or the current one', async () => {
    const dir = await tempDir();
    const blobs = new BlobFiles(dir);
    blobs.open({ file: 1, size: 0 });
    for (let i = 0; i < 4; i++) blobs.append(bytes(BLOB_FILE_BYTES, i)); // files 1..4, 4 current
    blobs.flush(); // what the worker does at the end of each group
    assert.equal(blobs.reclaim(new Set([2])), 2);
    assert.deepEqual(await files(dir), [blobFileName(2), blobFileName(4)]);
    assert.equal(blobs.reclaim(new Set()), 1);
    assert.deepEqual(await files(dir), [blobFileName(4)]);
    blobs.close();
  });

  test('reads through a window give the exact bytes, in order or not, larger than it, across files, appended since', async () => {
    const dir = await tempDir();
    const blobs = new BlobFiles(dir);
    blobs.open({ file: 1, size: 0 });
    const values = Array.from({ length: 40 }, (_, i) => bytes(10 + i, i + 1));
    const at = values.map((v) => blobs.append(v));
    const big = bytes(300, 0xaa);
    const bigAt = blobs.append(big);
    const window = readWindow(64);
    const read = (i: number) => Buffer.from(blobs.readThrough(at[i]!, values[i]!.length, window));
    for (const i of [0, 1, 2, 3, 39, 5, 38, 4]) assert.deepEqual(read(i), values[i], `value ${i}`);
    // Newest first, as a list page reads: the window is refilled to end where the value ends.
    assert.deepEqual(read(39), values[39]);
    assert.deepEqual(read(37), values[37]);
    assert.equal(window.start + window.filled, (at[37]! % 2 ** 32) + values[37]!.length);
    for (let i = 36; i >= 0; i--) assert.deepEqual(read(i), values[i], `value ${i}`);
    assert.deepEqual(Buffer.from(blobs.readThrough(bigAt, 300, window)), big);
    // The window holds the first bytes of the value it was filled for; the value after it is read again.
    assert.equal(window.start, bigAt % 2 ** 32);
    // A value appended after the window was filled, and one in the next file.
    const later = blobs.append(bytes(20, 7));
    assert.deepEqual(Buffer.from(blobs.readThrough(later, 20, window)), bytes(20, 7));
    // That read stopped at the end of the file: a value appended after it is not in the window.
    const after = blobs.append(bytes(20, 8));
    assert.deepEqual(Buffer.from(blobs.readThrough(after, 20, window)), bytes(20, 8));
    blobs.append(Buffer.alloc(BLOB_FILE_BYTES)); // file 2, alone
    const next = blobs.append(bytes(5, 9));
    assert.equal(blobFileOf(next), 3);
    assert.deepEqual(read(0), values[0]); // the window now holds file 1 from offset 0
    assert.deepEqual(Buffer.from(blobs.readThrough(next, 5, window)), bytes(5, 9));
    assert.equal(window.file, 3);
    // Past the end of the file: an error, and the window holds nothing.
    assert.throws(() => blobs.readThrough(next + 3, 5, window), /blobs-000003\.dat ends before the 5 bytes at 3/);
    assert.equal(window.file, -1);
    blobs.close();
  });

  test('a read past the end of a file is an error naming it, never other bytes', async () => {
    const dir = await tempDir();
    const blobs = new BlobFiles(dir);
    blobs.open({ file: 1, size: 0 });
    const at = blobs.append(bytes(64, 9));
    blobs.sync();
    await truncate(join(dir, blobFileName(1)), 10);
    assert.throws(() => blobs.read(at, 64), /blobs-000001\.dat ends before the 64 bytes at 0/);
    blobs.close();
  });
});
