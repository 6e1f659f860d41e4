/**
 * The database worker. sql.js keeps the whole database in this thread's memory,
 * so a checkpoint's synchronous `db.export()` (up to a second at a few hundred MB)
 * blocks only this thread, never the HTTP event loop. The main thread sends
 * journaled records to apply, queries, and checkpoint requests, in one ordered
 * message stream, which is what gives reads their read-your-writes guarantee.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import initSqlJs, { type Database, type SqlJsStatic, type Statement } from 'sql.js';
import { openPrivateFileSync } from '../support/private-files.ts';
import { decodeRecords, type JournalRecord } from './journal-codec.ts';
import { SNAPSHOT_FILE, listSegments } from './journal-files.ts';
import type { Migration, ReadQuery, Row, SqlValue } from './store-types.ts';
import type { FromWorker, OpenResult, ToWorker } from './worker-protocol.ts';

const STATEMENT_CACHE_LIMIT = 500;
const REPLAY_BATCH = 2000;

class DatabaseHost {
  private db: Database | null = null;
  private dir = '';
  private lastSeq = 0;
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly SQL: SqlJsStatic) {}

  async open(dir: string, migrations: Migration[]): Promise<OpenResult> {
    this.dir = dir;
    const snapshot = join(dir, SNAPSHOT_FILE);
    if (existsSync(snapshot)) {
      this.db = new this.SQL.Database(readFileSync(snapshot));
    } else {
      this.db = new this.SQL.Database();
      // Rows of a couple of KB would each take a whole 4 KB page; 8 KB pages pack them better.
      this.db.run('PRAGMA page_size = 8192');
    }
    const db = this.db;
    // Deleted and overwritten rows are zeroed rather than left in free space, so a
    // deleted endpoint's or rotated-out secret is gone from the next snapshot (the
    // journal segments holding it are deleted by that checkpoint). The setting
    // belongs to the connection, not the file, so it is set on every open.
    db.run('PRAGMA secure_delete = ON');
    db.run(`CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT OR IGNORE INTO store_meta (key, value) VALUES ('last_seq', 0);
            CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);`);
    this.migrate(migrations);
    this.lastSeq = Number(this.scalar("SELECT value FROM store_meta WHERE key = 'last_seq'"));

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
      for (let i = 0; i < fresh.length; i += REPLAY_BATCH) this.apply(fresh.slice(i, i + REPLAY_BATCH));
      replayed += fresh.length;
      for (const r of records) maxSeq = Math.max(maxSeq, r.seq);
    }
    return { lastSeq: maxSeq, lastSegment, replayed, tornBytes };
  }

  /** Applies records in one transaction; each record is atomic on its own (a savepoint). */
  apply(records: JournalRecord[]): { seq: number; message: string }[] {
    const db = this.need();
    const failures: { seq: number; message: string }[] = [];
    if (records.length === 0) return failures;
    db.run('BEGIN');
    try {
      for (const r of records) {
        db.run('SAVEPOINT rec');
        try {
          for (const op of r.ops) this.statement(op.sql).run(op.params);
          db.run('RELEASE rec');
        } catch (e) {
          db.run('ROLLBACK TO rec');
          db.run('RELEASE rec');
          failures.push({ seq: r.seq, message: e instanceof Error ? e.message : String(e) });
        }
        this.lastSeq = Math.max(this.lastSeq, r.seq);
      }
      this.statement("UPDATE store_meta SET value = ? WHERE key = 'last_seq'").run([this.lastSeq]);
      db.run('COMMIT');
    } catch (e) {
      db.run('ROLLBACK');
      throw e;
    }
    return failures;
  }

  query(sql: string, params: SqlValue[], one: boolean): Row[] | Row | undefined {
    const stmt = this.statement(sql);
    try {
      stmt.bind(params);
      if (one) return stmt.step() ? stmt.getAsObject() : undefined;
      const rows: Row[] = [];
      while (stmt.step()) rows.push(stmt.getAsObject());
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
    return queries.map((q) => this.query(q.sql, q.params ?? [], q.one ?? false));
  }

  /** Export, write a temp file, fsync, rename over the snapshot, fsync the directory. */
  checkpoint(): { bytes: number; ms: number; lastSeq: number } {
    const started = performance.now();
    const data = this.need().export();
    const target = join(this.dir, SNAPSHOT_FILE);
    const tmp = `${target}.tmp`;
    // A temp file left by a crash keeps its old mode through open(); rename keeps the temp's mode.
    const fd = openPrivateFileSync(tmp, 'w');
    try {
      let off = 0;
      while (off < data.length) off += writeSync(fd, data, off, data.length - off);
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
    return { bytes: data.length, ms: Math.round(performance.now() - started), lastSeq: this.lastSeq };
  }

  close(): void {
    for (const s of this.statements.values()) s.free();
    this.statements.clear();
    this.db?.close();
    this.db = null;
  }

  private migrate(migrations: Migration[]): void {
    const db = this.need();
    const applied = new Set(
      (db.exec('SELECT version FROM schema_migrations')[0]?.values ?? []).map((v) => Number(v[0])),
    );
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(m.version)) continue;
      db.run('BEGIN');
      try {
        db.run(m.sql);
        db.run('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', [m.version, m.name]);
        db.run('COMMIT');
      } catch (e) {
        db.run('ROLLBACK');
        throw new Error(`migration ${m.version} (${m.name}) failed: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
      }
    }
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

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('store-worker must run in a worker thread');
  const host = new DatabaseHost(await initSqlJs());
  const send = (m: FromWorker): void => port.postMessage(m);
  const reply = (id: number, fn: () => unknown): void => {
    Promise.resolve()
      .then(fn)
      .then(
        (value) => send({ t: 'reply', id, ok: true, value }),
        (e: unknown) => send({ t: 'reply', id, ok: false, message: e instanceof Error ? e.message : String(e) }),
      );
  };
  port.on('message', (m: ToWorker) => {
    switch (m.t) {
      case 'open':
        return reply(m.id, () => host.open(m.dir, m.migrations));
      case 'apply': {
        let failures: { seq: number; message: string }[];
        try {
          failures = host.apply(m.records);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          failures = m.records.map((r) => ({ seq: r.seq, message }));
        }
        return send({ t: 'applied', upTo: m.records[m.records.length - 1]?.seq ?? 0, failures });
      }
      case 'query':
        return reply(m.id, () => host.query(m.sql, m.params, m.one));
      case 'batch':
        return reply(m.id, () => host.batch(m.queries));
      case 'checkpoint':
        return reply(m.id, () => host.checkpoint());
      case 'close':
        return reply(m.id, () => host.close());
    }
  });
}

await main();
