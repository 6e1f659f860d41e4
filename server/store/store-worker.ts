/**
 * The database worker. sql.js keeps the whole database in this thread's memory,
 * so a checkpoint's synchronous `db.export()` (up to a second at a few hundred MB)
 * blocks only this thread, never the HTTP event loop. The main thread sends
 * journaled records to apply, queries, and checkpoint requests, in one ordered
 * message stream, which is what gives reads their read-your-writes guarantee.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import initSqlJs, { type Database, type SqlJsStatic, type Statement } from 'sql.js';
import { openPrivateFileSync } from '../support/private-files.ts';
import { someRecordHasBits } from './blob-bits.ts';
import { BlobFiles, readWindow, type BlobEnd } from './blob-files.ts';
import { decodeRecords, type JournalRecord } from './journal-codec.ts';
import { SNAPSHOT_FILE, listSegments } from './journal-files.ts';
import { migrationLabel } from './migration-plan.ts';
import { openSnapshot, snapshotTrailer, TRAILER_BYTES } from './snapshot-file.ts';
import { StaleCopies, fullCollection } from './stale-copies.ts';
import {
  AUX_SCHEMA,
  type BlobColumns,
  type FeatureMigrations,
  type ReadQuery,
  type Row,
  type SqlValue,
  type WordBits,
  type WriteOp,
} from './store-types.ts';
import type { FromWorker, OpenResult, ToWorker, WorkerMemory } from './worker-protocol.ts';

const STATEMENT_CACHE_LIMIT = 500;
/**
 * The most records applied as one group (one transaction). Live groups are what
 * arrived together (a journal group, plus whatever queued while the worker was
 * busy), so a worker that falls behind catches up in larger, cheaper groups;
 * recovery replays in groups of this size.
 */
export const MAX_GROUP = 1000;

interface ApplyOutcome {
  failures: { seq: number; message: string }[];
  warnings: string[];
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function writeAll(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off);
}

// Parameters of coalesced ops are strings and numbers (an account id, a budget).
const coalesceKey = (op: WriteOp): string =>
  `${op.sql}\u0000${JSON.stringify(op.params)}\u0000${op.when ? `${op.when.sql}\u0000${JSON.stringify(op.when.params)}` : ''}`;

/** Free pages below this are not worth a rebuild at open (DatabaseHost.compact). */
const SPARSE_MIN_BYTES = 1024 * 1024;

class DatabaseHost {
  private db: Database | null = null;
  /** sql.js's connection to the aux database (snapshot-file.ts), used only to export it. */
  private aux: Database | null = null;
  private dir = '';
  private lastSeq = 0;
  private readonly statements = new Map<string, Statement>();
  private applyDelayMs = 0;
  private blobs: BlobFiles | null = null;
  /**
   * Blob bytes read ahead by the blob SQL functions, for one query at a time: emptied before
   * each, so no query sees bytes a write (a wipe) changed since. 256 KiB: the bodies of about
   * 200 one-KB deliveries, read in one call when a search checks them in order.
   */
  private readonly window = readWindow(256 * 1024);
  private readonly copies = new StaleCopies(fullCollection(), () => [
    this.databaseBytes('main'),
    this.databaseBytes(AUX_SCHEMA),
  ]);

  constructor(private readonly SQL: SqlJsStatic) {}

  async open(dir: string, migrations: readonly FeatureMigrations[], applyDelayMs = 0): Promise<OpenResult> {
    this.dir = dir;
    this.applyDelayMs = applyDelayMs;
    const snapshot = join(dir, SNAPSHOT_FILE);
    ({ main: this.db, aux: this.aux } = openSnapshot(this.SQL, snapshot));
    const db = this.db;
    // Deleted and overwritten rows are zeroed rather than left in free space, so a
    // deleted endpoint's or rotated-out secret is gone from the next snapshot (the
    // journal segments holding it are deleted by that checkpoint). The setting
    // belongs to the connection, not the file, so it is set on every open (without a schema
    // name, for the aux database too).
    db.run('PRAGMA secure_delete = ON');
    // SQLite's own rollback journal only has to undo a failed statement or record
    // (our journal is what survives a crash), so it stays in memory: as a file in
    // sql.js's in-memory file system it was created, written and deleted per
    // transaction (measured: a per-record apply went from 4,100 to 6,800 records/s).
    db.run('PRAGMA journal_mode = MEMORY');
    db.run(`CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT OR IGNORE INTO store_meta (key, value) VALUES ('last_seq', 0);`);
    this.withoutRollbackJournal(() => this.migrate(migrations));
    this.createTemporaries(migrations);
    this.lastSeq = Number(this.scalar("SELECT value FROM store_meta WHERE key = 'last_seq'"));
    // Where the blob files ended when the snapshot was taken; what follows is replayed.
    db.run(`INSERT OR IGNORE INTO store_meta (key, value) VALUES ('blob_file', 1);
            INSERT OR IGNORE INTO store_meta (key, value) VALUES ('blob_size', 0);`);
    this.blobs = new BlobFiles(dir);
    const { cutBytes } = this.blobs.open({
      file: Number(this.scalar("SELECT value FROM store_meta WHERE key = 'blob_file'")),
      size: Number(this.scalar("SELECT value FROM store_meta WHERE key = 'blob_size'")),
    });
    this.defineBlobFunctions(db, this.blobs);

    let replayed = 0;
    let tornBytes = 0;
    let lastSegment = 0;
    let maxSeq = this.lastSeq;
    for (const seg of await listSegments(dir)) {
      lastSegment = seg.n;
      const buf = readFileSync(seg.path);
      const { records, goodLength } = decodeRecords(buf);
      if (goodLength < buf.length) {
        // A torn tail: the process died mid-write. Those bytes were never acknowledged.
        tornBytes += buf.length - goodLength;
        truncateSync(seg.path, goodLength);
      }
      const fresh = records.filter((r) => r.seq > this.lastSeq);
      for (let i = 0; i < fresh.length; i += MAX_GROUP) this.apply(fresh.slice(i, i + MAX_GROUP));
      replayed += fresh.length;
      for (const r of records) maxSeq = Math.max(maxSeq, r.seq);
    }
    const compactedBytes = this.withoutRollbackJournal(() => this.compact('main') + this.compact(AUX_SCHEMA));
    this.copies.collectNow(); // sql.js's copies while replay grew a file, and the files a compaction replaced
    return { lastSeq: maxSeq, lastSegment, replayed, tornBytes, blobBytesCut: cutBytes, compactedBytes };
  }

  /**
   * Applies records as one group: one transaction, each record atomic on its own (a
   * savepoint), and each distinct coalesced op (retention) run once after the others.
   * A failed record is reported and skipped; a failed coalesced op is reported as a
   * warning (the records it followed are stored).
   */
  apply(records: JournalRecord[]): ApplyOutcome {
    const db = this.need();
    const outcome: ApplyOutcome = { failures: [], warnings: [] };
    if (records.length === 0) return outcome;
    const deferred = new Map<string, { op: WriteOp; seq: number }>();
    db.run('BEGIN');
    try {
      for (const r of records) {
        db.run('SAVEPOINT rec');
        try {
          for (const op of r.ops) if (!op.coalesce) this.run(op);
          db.run('RELEASE rec');
          // Only a record that was applied brings its clean-ups.
          for (const op of r.ops) if (op.coalesce) deferred.set(coalesceKey(op), { op, seq: r.seq });
        } catch (e) {
          db.run('ROLLBACK TO rec');
          db.run('RELEASE rec');
          outcome.failures.push({ seq: r.seq, message: errorMessage(e) });
        }
        this.lastSeq = Math.max(this.lastSeq, r.seq);
      }
      for (const { op, seq } of deferred.values()) {
        db.run('SAVEPOINT rec');
        try {
          this.run(op);
          db.run('RELEASE rec');
        } catch (e) {
          db.run('ROLLBACK TO rec');
          db.run('RELEASE rec');
          outcome.warnings.push(`a clean-up after write ${seq} failed: ${errorMessage(e)}`);
        }
      }
      this.statement("UPDATE store_meta SET value = ? WHERE key = 'last_seq'").run([this.lastSeq]);
      this.blobs?.flush();
      db.run('COMMIT');
    } catch (e) {
      db.run('ROLLBACK');
      throw e;
    }
    this.copies.collectIfGrown();
    this.throttle();
    return outcome;
  }

  query(sql: string, params: SqlValue[], one: boolean, blob?: BlobColumns): Row[] | Row | undefined {
    this.window.file = -1;
    const stmt = this.statement(sql);
    try {
      stmt.bind(params);
      if (one) return stmt.step() ? this.withBlob(stmt.getAsObject(), blob) : undefined;
      const rows: Row[] = [];
      while (stmt.step()) rows.push(this.withBlob(stmt.getAsObject(), blob));
      return rows;
    } finally {
      stmt.reset();
    }
  }

  /**
   * Several reads back to back in this one message, so no write record is applied
   * between them: a page of rows and its total count describe the same state.
   */
  batch(queries: ReadQuery[]): (Row[] | Row | undefined)[] {
    return queries.map((q) => this.query(q.sql, q.params ?? [], q.one ?? false, q.blob));
  }

  /** Export, write a temp file, fsync, rename over the snapshot, fsync the directory. */
  checkpoint(): { bytes: number; ms: number; lastSeq: number; blobFilesDeleted: number } {
    const started = performance.now();
    const blobs = this.needBlobs();
    // The snapshot will refer to every blob written so far: make them durable first,
    // and record where the files end, so a later open cuts off only what replay rewrites.
    blobs.sync();
    this.recordBlobEnd(blobs.end);
    // The export is a whole copy of the database: not on top of a stale one (and not kept after: writeSnapshot).
    this.copies.collectNow();
    const bytes = this.writeSnapshot();
    // Files no row refers to any more are not needed by this snapshot, the only one now.
    const blobFilesDeleted = blobs.reclaim(this.liveBlobFiles());
    return { bytes, ms: Math.round(performance.now() - started), lastSeq: this.lastSeq, blobFilesDeleted };
  }

  memory(): WorkerMemory {
    const { arrayBuffers, heapUsed } = process.memoryUsage();
    return { arrayBuffers, heapUsed, collections: this.copies.collections };
  }

  close(): void {
    this.blobs?.close();
    this.blobs = null;
    for (const s of this.statements.values()) s.free();
    this.statements.clear();
    this.db?.close();
    this.db = null;
    this.aux?.close();
    this.aux = null;
  }

  /**
   * The databases' bytes, durably in the snapshot file (snapshot-file.ts); returns its length.
   * Each export (a whole copy of one database) is dropped and collected once written, before
   * the next export and the fsync, which does not need them and can take longer than the writes.
   */
  private writeSnapshot(): number {
    const target = join(this.dir, SNAPSHOT_FILE);
    const tmp = `${target}.tmp`;
    // A temp file left by a crash keeps its old mode through open(); rename keeps the temp's mode.
    const fd = openPrivateFileSync(tmp, 'w');
    let bytes: number;
    try {
      const mainBytes = this.writeExport(fd, this.need());
      this.copies.collectNow();
      const auxBytes = this.writeExport(fd, this.needAux());
      this.copies.collectNow();
      writeAll(fd, snapshotTrailer(mainBytes, auxBytes));
      bytes = mainBytes + auxBytes + TRAILER_BYTES;
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
    const dfd = openSync(this.dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
    return bytes;
  }

  /** Appends an export of `db`'s main database to `fd`; the copy is garbage when this returns. */
  private writeExport(fd: number, db: Database): number {
    const data = db.export();
    writeAll(fd, data);
    return data.length;
  }

  /**
   * Applies each feature's pending migrations, feature by feature in the order
   * given, each in its own transaction with its row in `migrations`. Runs on the
   * snapshot before the journal is replayed: journal records were written against
   * the migrated schema. A store holding a step this engine does not know was
   * written by a newer one and is refused untouched.
   */
  private migrate(sets: readonly FeatureMigrations[]): void {
    const db = this.need();
    db.run(`CREATE TABLE IF NOT EXISTS migrations (
              feature TEXT NOT NULL,
              number INTEGER NOT NULL,
              name TEXT NOT NULL,
              PRIMARY KEY (feature, number)
            )`);
    this.upgradeLegacyVersions(sets);
    const applied = new Set(
      (db.exec('SELECT feature, number FROM migrations')[0]?.values ?? []).map(
        (v) => `${String(v[0])} ${Number(v[1])}`,
      ),
    );
    for (const set of sets) {
      const known = new Set(set.migrations.map((m) => `${set.feature} ${m.number}`));
      const unknown = [...applied].filter((key) => key.startsWith(`${set.feature} `) && !known.has(key));
      if (unknown.length > 0) {
        throw new Error(
          `the store was written by a newer Hookscope: it has migration ${unknown.join(', ')}, which this version does not know. ` +
            'Run the newer version, or point this one at another data directory.',
        );
      }
    }
    for (const set of sets) {
      for (const m of set.migrations) {
        if (applied.has(`${set.feature} ${m.number}`)) continue;
        db.run('BEGIN');
        try {
          db.run(m.sql);
          db.run('INSERT INTO migrations (feature, number, name) VALUES (?, ?, ?)', [set.feature, m.number, m.name]);
          db.run('COMMIT');
        } catch (e) {
          db.run('ROLLBACK');
          throw new Error(
            `migration ${migrationLabel(set.feature, m)} failed: ${e instanceof Error ? e.message : String(e)}`,
            { cause: e },
          );
        }
      }
    }
  }

  /**
   * Runs `work` with no rollback journal. A migration or a compaction rewrites much of a
   * database in one transaction, and the memory journal would keep every page it changes in
   * sql.js's WebAssembly memory, which never shrinks: measured, the upgrade to logs migration
   * 17 at 100,000 logs left the engine holding 400 MB instead of 230 until it restarted.
   * Neither needs a rollback: if one fails, the open fails and this copy of the store is
   * dropped, with the files on disk unchanged.
   */
  private withoutRollbackJournal<T>(work: () => T): T {
    const db = this.need();
    db.run('PRAGMA journal_mode = OFF');
    try {
      return work();
    } finally {
      db.run('PRAGMA journal_mode = MEMORY');
    }
  }

  /** Runs the `temporary` SQL of each applied migration that has one, in the sets' order. */
  private createTemporaries(sets: readonly FeatureMigrations[]): void {
    for (const set of sets) {
      for (const m of set.migrations) if (m.temporary) this.need().run(m.temporary);
    }
  }

  /**
   * Hookscope 0.1.0 numbered migrations engine-wide in `schema_migrations`. Such a
   * store gets each applied version's (feature, number) through the migrations'
   * `legacyVersion`, and loses the old table, in one transaction.
   */
  private upgradeLegacyVersions(sets: readonly FeatureMigrations[]): void {
    const db = this.need();
    if (this.scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") === 0) {
      return;
    }
    const byVersion = new Map<number, { feature: string; number: number; name: string }>();
    for (const set of sets) {
      for (const m of set.migrations) {
        if (m.legacyVersion !== undefined) byVersion.set(m.legacyVersion, { feature: set.feature, ...m });
      }
    }
    const versions = (db.exec('SELECT version FROM schema_migrations ORDER BY version')[0]?.values ?? []).map((v) =>
      Number(v[0]),
    );
    const unknown = versions.filter((v) => !byVersion.has(v));
    if (unknown.length > 0) {
      throw new Error(
        `the store has engine-wide migration version ${unknown.join(', ')}, which this version of Hookscope does not know.`,
      );
    }
    db.run('BEGIN');
    try {
      for (const v of versions) {
        const m = byVersion.get(v)!;
        db.run('INSERT OR IGNORE INTO migrations (feature, number, name) VALUES (?, ?, ?)', [
          m.feature,
          m.number,
          m.name,
        ]);
      }
      db.run('DROP TABLE schema_migrations');
      db.run('COMMIT');
    } catch (e) {
      db.run('ROLLBACK');
      throw e;
    }
  }

  /** Runs one statement; a spilled value goes to the blob files and its location is bound last. */
  private run(op: WriteOp): void {
    if (op.when && !this.due(op.when)) return;
    if (op.wipe) {
      const rows = this.query(op.sql, op.params, false) as Row[];
      for (const r of rows) {
        const [location, length] = Object.values(r);
        if (typeof location === 'number') this.needBlobs().wipe(location, Number(length));
      }
      return;
    }
    const params = op.spill ? [...op.params, this.needBlobs().append(op.spill)] : op.params;
    this.statement(op.sql).run(params);
  }

  /**
   * SQL functions over spilled values, run where the values are read, so a query over many
   * of them copies none to the asking thread and leaves no garbage: each is read through one
   * reused window (BlobFiles.readThrough; sql.js copies a function's result into SQLite's own
   * memory). NULL for a row with no value (`location` NULL).
   * - `blob_value(location, length)`: the value, for SQL to test (`LIKE`) or return.
   * - `blob_has_bits(location, length, record_bytes, words_json)`: 1 when some record of the
   *   value has the words' bits (blob-bits.ts), else 0. The words of the last call are kept
   *   parsed (a query passes the same words for every row).
   * Measured (issue 25), a search at 100,000 logs checking 12,500 bodies: resident memory
   * grew by about 100 MB when the bodies were copied to the engine's thread to be checked.
   * Read in seq order through the window, those bodies take one file read per 256 KiB of the
   * blob files (at most about 600 over 100,000 logs) instead of one each.
   */
  private defineBlobFunctions(db: Database, blobs: BlobFiles): void {
    const read = (location: number, length: number): Uint8Array => blobs.readThrough(location, length, this.window);
    db.create_function('blob_value', (location: SqlValue, length: SqlValue) =>
      typeof location === 'number' ? read(location, Number(length)) : null,
    );
    let wordsJson = '';
    let words: WordBits[] = [];
    db.create_function(
      'blob_has_bits',
      (location: SqlValue, length: SqlValue, recordBytes: SqlValue, json: SqlValue) => {
        if (typeof location !== 'number') return null;
        if (json !== wordsJson) {
          words = JSON.parse(String(json)) as WordBits[];
          wordsJson = String(json);
        }
        return someRecordHasBits(read(location, Number(length)), Number(recordBytes), words) ? 1 : 0;
      },
    );
  }

  /** Whether a guarded op is due: its query's one value is true (not 0 or NULL). */
  private due(when: NonNullable<WriteOp['when']>): boolean {
    const value = this.query(when.sql, when.params, true) as Row | undefined;
    const first = value === undefined ? null : Object.values(value)[0];
    return first !== null && first !== undefined && first !== 0;
  }

  private withBlob(row: Row, blob: BlobColumns | undefined): Row {
    if (!blob) return row;
    const location = row[blob.location];
    if (typeof location === 'number') row[blob.into] = this.needBlobs().read(location, Number(row[blob.length]));
    return row;
  }

  private recordBlobEnd(end: BlobEnd): void {
    const set = this.statement('UPDATE store_meta SET value = ? WHERE key = ?');
    set.run([end.file, 'blob_file']);
    set.run([end.size, 'blob_size']);
  }

  /**
   * The blob files some row still refers to. Tables holding locations are found by
   * their columns' names (a `location` column next to a `length` one), so a feature
   * that spills needs no registration; at 100,000 logs the scan takes a few ms, once
   * per checkpoint.
   */
  private liveBlobFiles(): Set<number> {
    const live = new Set<number>();
    for (const table of this.blobTables()) {
      const rows = this.need().exec(`SELECT DISTINCT location >> 32 FROM "${table}" WHERE location IS NOT NULL`);
      for (const v of rows[0]?.values ?? []) live.add(Number(v[0]));
    }
    return live;
  }

  private blobTables(): string[] {
    const res = this.need().exec(
      `SELECT m.name FROM sqlite_master m WHERE m.type = 'table'
         AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'location')
         AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'length')`,
    );
    return (res[0]?.values ?? []).map((v) => String(v[0]));
  }

  private needBlobs(): BlobFiles {
    if (!this.blobs) throw new Error('database is not open');
    return this.blobs;
  }

  /** Tests only (a throttled worker): sleeps after each group, as a slow disk or CPU would. */
  private throttle(): void {
    if (this.applyDelayMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, this.applyDelayMs);
  }

  /**
   * Rebuilds a database at open when more than a quarter of it (and at least 1 MiB) is free
   * pages; returns the bytes it gave back. SQLite reuses free pages but never shrinks a file
   * without VACUUM, and sql.js holds the whole file in memory and a checkpoint copies it. Free
   * pages come from a migration that moved or dropped a table (logs migration 17 moves the
   * search signatures out of the main database: 42 MB freed at 100,000 deliveries, measured)
   * and from logs deleted in bulk. Retention's steady deletes leave few: new rows reuse them.
   */
  private compact(schema: string): number {
    const pageSize = Number(this.scalar(`PRAGMA ${schema}.page_size`));
    const free = Number(this.scalar(`PRAGMA ${schema}.freelist_count`)) * pageSize;
    const before = this.databaseBytes(schema);
    if (free < SPARSE_MIN_BYTES || free * 4 <= before) return 0;
    this.need().run(`VACUUM ${schema}`);
    return before - this.databaseBytes(schema);
  }

  /** Bytes of one attached database's file. */
  private databaseBytes(schema: string): number {
    return Number(this.scalar(`PRAGMA ${schema}.page_count`)) * Number(this.scalar(`PRAGMA ${schema}.page_size`));
  }

  private needAux(): Database {
    if (!this.aux) throw new Error('the store is not open');
    return this.aux;
  }

  private scalar(sql: string): SqlValue {
    return this.need().exec(sql)[0]?.values[0]?.[0] ?? null;
  }

  private statement(sql: string): Statement {
    let s = this.statements.get(sql);
    if (s) return s;
    if (this.statements.size >= STATEMENT_CACHE_LIMIT) {
      const [oldestSql, oldest] = this.statements.entries().next().value as [string, Statement];
      oldest.free();
      this.statements.delete(oldestSql);
    }
    s = this.need().prepare(sql);
    this.statements.set(sql, s);
    return s;
  }

  private need(): Database {
    if (!this.db) throw new Error('database is not open');
    return this.db;
  }
}

/**
 * Takes the apply messages already queued behind `first` (up to MAX_GROUP records in
 * all), so records that arrived while the worker was busy go in one group. Stops at
 * the first message of another kind, which is returned to be handled next, in order.
 */
function gatherGroup(
  port: MessagePort,
  first: Uint8Array,
  statements: Map<number, string>,
): { records: JournalRecord[]; next?: ToWorker } {
  const records = framesToRecords(first, statements);
  while (records.length < MAX_GROUP) {
    const queued = receiveMessageOnPort(port);
    if (!queued) break;
    const m = queued.message as ToWorker;
    if (m.t !== 'apply') return { records, next: m };
    for (const r of framesToRecords(m.frames, statements)) records.push(r);
  }
  return { records };
}

/**
 * The records of frames the main thread journaled; they were whole when sent, so a bad
 * one is a bug. `statements` is the catalogue's definitions the worker has been sent,
 * for its whole life: the main thread numbers statements once per process.
 */
function framesToRecords(frames: Uint8Array, statements: Map<number, string>): JournalRecord[] {
  const buf = Buffer.from(frames.buffer, frames.byteOffset, frames.byteLength);
  const { records, goodLength } = decodeRecords(buf, statements);
  if (goodLength !== buf.length)
    throw new Error(`a group of journal frames did not decode (${goodLength} of ${buf.length} bytes)`);
  return records;
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('store-worker must run in a worker thread');
  const host = new DatabaseHost(await initSqlJs());
  const statements = new Map<number, string>();
  const send = (m: FromWorker): void => port.postMessage(m);
  const reply = (id: number, fn: () => unknown): void => {
    Promise.resolve()
      .then(fn)
      .then(
        (value) => send({ t: 'reply', id, ok: true, value }),
        (e: unknown) => send({ t: 'reply', id, ok: false, message: errorMessage(e) }),
      );
  };
  const applyGroup = (records: JournalRecord[]): void => {
    let outcome: ApplyOutcome;
    try {
      outcome = host.apply(records);
    } catch (e) {
      const message = errorMessage(e);
      outcome = { failures: records.map((r) => ({ seq: r.seq, message })), warnings: [] };
    }
    send({ t: 'applied', upTo: records[records.length - 1]?.seq ?? 0, ...outcome });
  };
  const handle = (m: ToWorker): void => {
    switch (m.t) {
      case 'open':
        return reply(m.id, () => host.open(m.dir, m.migrations, m.applyDelayMs));
      case 'apply': {
        const { records, next } = gatherGroup(port, m.frames, statements);
        applyGroup(records);
        if (next) handle(next);
        return;
      }
      case 'query':
        return reply(m.id, () => host.query(m.sql, m.params, m.one, m.blob));
      case 'batch':
        return reply(m.id, () => host.batch(m.queries));
      case 'checkpoint':
        return reply(m.id, () => host.checkpoint());
      case 'memory':
        return reply(m.id, () => host.memory());
      case 'close':
        return reply(m.id, () => host.close());
    }
  };
  port.on('message', handle);
}

await main();
