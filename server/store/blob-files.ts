import {
  closeSync,
  fsyncSync,
  readdirSync,
  readSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { join } from 'node:path';
import { openPrivateFileSync } from '../support/private-files.ts';
import { readExactly } from '../support/read-exactly.ts';

// Blob files are `blobs-000001.dat`, `blobs-000002.dat`, ... next to the journal.
const BLOB_FILE = /^blobs-(\d{6,})\.dat$/;
export const blobFileName = (n: number): string => `blobs-${String(n).padStart(6, '0')}.dat`;

/** A new file is started once the current one would pass this size (a larger blob gets a file of its own). */
export const BLOB_FILE_BYTES = 16 * 1024 * 1024;

// A location is one SQLite integer: file number * 2^32 + offset. Offsets stay under
// 2^32 (files end near 16 MiB, or at one blob's size), and the product stays exact in
// a double up to 2^21 files (32 TiB written in all).
const FILE_UNIT = 2 ** 32;
export const blobLocation = (file: number, offset: number): number => file * FILE_UNIT + offset;
export const blobFileOf = (location: number): number => Math.floor(location / FILE_UNIT);
const offsetOf = (location: number): number => location % FILE_UNIT;

/** Bytes of a blob file read ahead (BlobFiles.readThrough); `file` -1 holds none. */
export interface ReadWindow {
  bytes: Buffer;
  file: number;
  start: number;
  filled: number;
}

/** An empty window of `size` bytes. */
export const readWindow = (size: number): ReadWindow => ({
  bytes: Buffer.allocUnsafe(size),
  file: -1,
  start: 0,
  filled: 0,
});

/** Where the files end: the next byte a blob would be written at. */
export interface BlobEnd {
  file: number;
  size: number;
}

/**
 * Append-only files for large values the database keeps only a location of (log
 * bodies), so sql.js's in-memory database, and the snapshot a checkpoint copies
 * out of it, hold metadata only. Owned by the store's worker thread; every call is
 * synchronous there (never on the HTTP event loop).
 *
 * Durability comes from the journal, which holds every blob too: the files are
 * written when a record is applied and fsynced before a snapshot that refers to
 * them is written. A snapshot records where the files ended; on open, anything
 * after that point was written by records the journal replays, so it is cut off
 * (and files started after it deleted) and replay writes it again at the same
 * locations, because appends are deterministic in record order.
 */
export class BlobFiles {
  private file = 1;
  private size = 0;
  private fd: number | null = null;
  /** Files written since the last sync (the current one, and any filled since). */
  private readonly unsynced = new Set<number>();
  /**
   * Appended bytes not written yet, and where they start: a group of records is
   * written with one writev when it is done (or before a read, sync or new file)
   * instead of one write per record.
   */
  private pending: Uint8Array[] = [];
  private pendingFrom = 0;
  /** Read handles, by file number: files are read often and opened once. */
  private readonly readers = new Map<number, number>();

  constructor(private readonly dir: string) {}

  /** Cuts the files back to `end` (what the snapshot refers to) and opens for appending there. */
  open(end: BlobEnd): { cutBytes: number } {
    let cutBytes = 0;
    for (const { n, path } of this.list()) {
      if (n > end.file) {
        cutBytes += statSync(path).size;
        unlinkSync(path);
      } else if (n === end.file) {
        const size = statSync(path).size;
        if (size > end.size) {
          cutBytes += size - end.size;
          truncateSync(path, end.size);
        }
      }
    }
    this.file = end.file;
    this.size = end.size;
    return { cutBytes };
  }

  get end(): BlobEnd {
    return { file: this.file, size: this.size };
  }

  /** Appends `bytes` (written by the next `flush`) and returns their location. */
  append(bytes: Uint8Array): number {
    if (this.size > 0 && this.size + bytes.length > BLOB_FILE_BYTES) this.startNext();
    if (this.pending.length === 0) this.pendingFrom = this.size;
    this.pending.push(bytes);
    const location = blobLocation(this.file, this.size);
    this.size += bytes.length;
    this.unsynced.add(this.file);
    return location;
  }

  /** Writes what `append` queued, in one writev. */
  flush(): void {
    if (this.pending.length === 0) return;
    const fd = this.writer();
    const buffers = this.pending;
    let at = this.pendingFrom;
    this.pending = [];
    while (buffers.length > 0) {
      let written = writevSync(fd, buffers, at);
      at += written;
      // writev may stop short: drop what is written and go on from there.
      while (buffers.length > 0 && written >= buffers[0]!.length) written -= buffers.shift()!.length;
      if (written > 0) buffers[0] = buffers[0]!.subarray(written);
    }
  }

  read(location: number, length: number): Uint8Array {
    const out = Buffer.allocUnsafe(length);
    if (length === 0) return out;
    this.flush();
    const file = blobFileOf(location);
    readExactly(
      this.reader(file),
      out,
      offsetOf(location),
      () => new Error(`${blobFileName(file)} ends before the ${length} bytes at ${offsetOf(location)}`),
    );
    return out;
  }

  /**
   * The value at `location` through `window`: served from the window's bytes when they hold
   * it, else the window is refilled from the file (up to its size; a larger value is read
   * into it alone). Values read in order of location, as a query over logs in seq order
   * reads their bodies, then cost one read per window, not one each; read in reverse order
   * (a list page, newest first), the window is refilled to end where the value ends.
   * A window holds bytes as they were when read: reset it before a wipe could change them.
   */
  readThrough(location: number, length: number, window: ReadWindow): Uint8Array {
    const file = blobFileOf(location);
    const offset = offsetOf(location);
    if (file === window.file && offset >= window.start && offset + length <= window.start + window.filled) {
      return window.bytes.subarray(offset - window.start, offset - window.start + length);
    }
    if (window.bytes.length < length) window.bytes = Buffer.allocUnsafe(length);
    const backwards = file === window.file && offset < window.start;
    const start = backwards ? Math.max(0, offset + length - window.bytes.length) : offset;
    this.flush();
    const fd = this.reader(file);
    let got = 0;
    for (let n = -1; n !== 0 && got < window.bytes.length; got += n) {
      n = readSync(fd, window.bytes, got, window.bytes.length - got, start + got);
    }
    window.file = file;
    window.start = start;
    window.filled = got;
    if (got < offset - start + length) {
      window.file = -1;
      throw new Error(`${blobFileName(file)} ends before the ${length} bytes at ${offset}`);
    }
    return window.bytes.subarray(offset - start, offset - start + length);
  }

  /** Overwrites a stored value with zeros (its row is being deleted on purpose). */
  wipe(location: number, length: number): void {
    if (length === 0) return;
    this.flush();
    const file = blobFileOf(location);
    const fd = openPrivateFileSync(join(this.dir, blobFileName(file)), 'r+');
    try {
      const zeros = Buffer.alloc(Math.min(length, 1024 * 1024));
      for (let done = 0; done < length;) {
        const n = Math.min(zeros.length, length - done);
        done += writeSync(fd, zeros, 0, n, offsetOf(location) + done);
      }
    } finally {
      closeSync(fd);
    }
    this.unsynced.add(file);
  }

  /** Makes every byte appended so far durable (before a snapshot that refers to them). */
  sync(): void {
    this.flush();
    for (const n of this.unsynced) {
      const fd = n === this.file && this.fd !== null ? this.fd : null;
      if (fd !== null) fsyncSync(fd);
      else {
        const other = openPrivateFileSync(join(this.dir, blobFileName(n)), 'r+');
        try {
          fsyncSync(other);
        } finally {
          closeSync(other);
        }
      }
    }
    this.unsynced.clear();
  }

  /**
   * Deletes the files before the current one that no stored row refers to (`live`:
   * the file numbers that are). Call only once a snapshot without references to
   * them is durable. Returns how many were deleted.
   */
  reclaim(live: ReadonlySet<number>): number {
    let deleted = 0;
    for (const { n, path } of this.list()) {
      if (n >= this.file || live.has(n)) continue;
      this.closeReader(n);
      unlinkSync(path);
      this.unsynced.delete(n);
      deleted += 1;
    }
    return deleted;
  }

  close(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    for (const n of [...this.readers.keys()]) this.closeReader(n);
  }

  private startNext(): void {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.file += 1;
    this.size = 0;
  }

  private writer(): number {
    this.fd ??= openPrivateFileSync(join(this.dir, blobFileName(this.file)), 'a+');
    return this.fd;
  }

  private reader(file: number): number {
    let fd = this.readers.get(file);
    if (fd === undefined) {
      fd = openPrivateFileSync(join(this.dir, blobFileName(file)), 'r');
      this.readers.set(file, fd);
    }
    return fd;
  }

  private closeReader(file: number): void {
    const fd = this.readers.get(file);
    if (fd === undefined) return;
    closeSync(fd);
    this.readers.delete(file);
  }

  private list(): { n: number; path: string }[] {
    return readdirSync(this.dir)
      .map((name) => ({ m: BLOB_FILE.exec(name), name }))
      .filter((x): x is { m: RegExpExecArray; name: string } => x.m !== null)
      .map(({ m, name }) => ({ n: Number(m[1]), path: join(this.dir, name) }))
      .sort((a, b) => a.n - b.n);
  }
}
