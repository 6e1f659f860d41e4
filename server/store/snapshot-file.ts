import { closeSync, existsSync, fstatSync, openSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { readExactly } from '../support/read-exactly.ts';
import { AUX_SCHEMA } from './store-types.ts';

/**
 * The snapshot file holds two SQLite databases, written one after the other by one
 * checkpoint: the main one, then the `aux` one (tables a feature keeps apart, attached to
 * the main connection under that name: store-worker.ts), then a trailer naming both
 * lengths. One file, so one rename makes both current together.
 *
 * Why two: sql.js's export is a whole copy of a database, and a checkpoint holds it until
 * it is written. Exported one at a time, the copies are the size of the larger database,
 * not of both (issue 25: the search signatures, 35% of the store at 100,000 logs).
 *
 * A file without the trailer is a lone SQLite database (every store written before the
 * aux database): it is the main one, and the aux database starts empty. A SQLite file's
 * size is a whole number of pages (512 bytes at least), and a file with the trailer never is.
 */
const MAGIC = Buffer.from('HKSNAUX1', 'latin1');
export const TRAILER_BYTES = MAGIC.length + 16;

/** The trailer after `mainBytes` of the main database and `auxBytes` of the aux one. */
export function snapshotTrailer(mainBytes: number, auxBytes: number): Buffer {
  const trailer = Buffer.alloc(TRAILER_BYTES);
  MAGIC.copy(trailer, 0);
  trailer.writeBigUInt64LE(BigInt(mainBytes), MAGIC.length);
  trailer.writeBigUInt64LE(BigInt(auxBytes), MAGIC.length + 8);
  return trailer;
}

/** Where each database lies in a snapshot file of `size` bytes whose last bytes are `tail`; null for a lone database. */
export function snapshotLayout(size: number, tail: Uint8Array): { mainBytes: number; auxBytes: number } | null {
  if (size < TRAILER_BYTES || size % 512 === 0 || tail.length !== TRAILER_BYTES) return null;
  const trailer = Buffer.from(tail.buffer, tail.byteOffset, tail.length);
  if (!trailer.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const mainBytes = Number(trailer.readBigUInt64LE(MAGIC.length));
  const auxBytes = Number(trailer.readBigUInt64LE(MAGIC.length + 8));
  if (mainBytes + auxBytes + TRAILER_BYTES !== size) {
    throw new Error(
      `the snapshot file is damaged: its trailer names ${mainBytes} + ${auxBytes} bytes of databases, and the file holds ${size - TRAILER_BYTES}`,
    );
  }
  return { mainBytes, auxBytes };
}

/**
 * One of a snapshot file's databases, read into a buffer of its own size, which sql.js then
 * keeps as that database's file (readRange). The aux database of a lone SQLite file is null.
 */
export function readSnapshotPart(path: string, part: 'main' | 'aux'): Buffer | null {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const tail = new Uint8Array(Math.min(TRAILER_BYTES, size));
    readExactly(fd, tail, size - tail.length, ended);
    const layout = snapshotLayout(size, tail);
    if (!layout) return part === 'main' ? readRange(fd, 0, size) : null;
    return part === 'main' ? readRange(fd, 0, layout.mainBytes) : readRange(fd, layout.mainBytes, layout.auxBytes);
  } finally {
    closeSync(fd);
  }
}

/** Of a new database. Rows of a couple of KB would each take a whole 4 KB page; 8 KB pages pack them better. */
export const PAGE_SIZE = 8192;

/**
 * The snapshot at `path` in sql.js: `main`, with the aux database attached to it as AUX_SCHEMA,
 * and `aux`, sql.js's own connection to that database's in-memory file (sql.js exports a
 * connection's main database only, so this one is kept to export it; SQLite checks a file's
 * change counter when a read starts, so it never exports pages it cached before the other
 * connection wrote). Both are new and empty, with pages of PAGE_SIZE, where there is no file.
 */
export function openSnapshot(SQL: SqlJsStatic, path: string): { main: Database; aux: Database } {
  const stored = existsSync(path);
  const main = new SQL.Database(stored ? readSnapshotPart(path, 'main') : undefined);
  let aux: Database | null = null;
  try {
    if (!stored) main.run(`PRAGMA page_size = ${PAGE_SIZE}`);
    const auxBytes = stored ? readSnapshotPart(path, 'aux') : null;
    aux = new SQL.Database(auxBytes ?? undefined);
    main.run(`ATTACH ? AS ${AUX_SCHEMA}`, [inMemoryFileOf(aux)]);
    // Through the attachment: the main connection writes the file's first page.
    if (!auxBytes) main.run(`PRAGMA ${AUX_SCHEMA}.page_size = ${PAGE_SIZE}`);
    return { main, aux };
  } catch (e) {
    main.close();
    aux?.close();
    throw e;
  }
}

/**
 * The path of the in-memory file sql.js opened `db` on. sql.js keeps it in `filename`, which
 * its type declarations leave out.
 */
function inMemoryFileOf(db: Database): string {
  const { filename } = db as unknown as { filename?: unknown };
  if (typeof filename !== 'string') throw new Error("this sql.js build does not name a database's file");
  return filename;
}

/**
 * A Node Buffer, not a plain Uint8Array: sql.js puts the bytes in its file system with
 * `slice()`, which copies a Uint8Array but is a view of a Buffer, so sql.js keeps these bytes
 * instead of a second copy. Never pooled (allocUnsafeSlow): the view is the database file.
 * Measured on the seeded 100,000-log store: peak memory at start-up 315 MB with a Uint8Array,
 * 230 with a Buffer.
 */
function readRange(fd: number, position: number, length: number): Buffer {
  const out = Buffer.allocUnsafeSlow(length);
  readExactly(fd, out, position, ended);
  return out;
}

const ended = (): Error => new Error('the snapshot file ended before its databases did');
