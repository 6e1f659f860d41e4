// What the logs_hourly migration (per-hour rows, failed-by-reason and size indexes) adds to
// storing a log, measured on sql.js directly at 100,000 logs: the engine's full schema
// with and without that migration's objects, inserts applied in groups of 64 in one
// transaction (PRAGMA journal_mode = MEMORY) with retention once per group, so each
// group also evicts 64 logs. The two databases take turns, so load from elsewhere on
// the machine falls on both alike. Not part of `npm run bench`; alone:
//   node --import tsx tests/bench/log-insert.bench.ts
// A measurement to read, never a timed assertion.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import initSqlJs, { type Database, type Statement } from 'sql.js';
import { startEngine } from '../../server/engine/engine.ts';
import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import type { NewLog } from '../../server/logs/log-types.ts';
import { SqljsLogsRepository } from '../../server/storage/sqljs/logs-sqljs.ts';
import { SNAPSHOT_FILE } from '../../server/store/journal-files.ts';
import { openSnapshot } from '../../server/store/snapshot-file.ts';
import type { Store, WriteOp } from '../../server/store/store-types.ts';
import { testConfig } from '../helpers/test-engine.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { seededLog } from './seed-logs.ts';

const LOGS = 100_000;
const GROUP = 64;
const GROUPS_PER_RUN = 20;
const RUNS = 21;
const ACCOUNT = 'acc_bench';
const ENDPOINTS = ['ep_0', 'ep_1', 'ep_2', 'ep_3', 'ep_4'];
const START = Date.parse('2025-01-01T00:00:00.000Z');
/** 100,000 logs over 30 days. */
const STEP_MS = 26_000;
const RETENTION = { maxLogsPerAccount: LOGS, maxBodyBytesPerAccount: 512 * 1024 * 1024 };

/** What the logs_hourly migration creates; dropping them gives the schema before it. */
const HOURLY_OBJECTS = `DROP TRIGGER logs_hourly_counted; DROP TRIGGER logs_hourly_uncounted;
  DROP TRIGGER logs_hourly_recounted; DROP INDEX logs_failed_by_reason; DROP INDEX logs_by_size;
  DROP TABLE log_hourly;`;

/** The ops SqljsLogsRepository.insert() writes, caught instead of journaled: the bench runs the real SQL. */
function insertOps(): (j: number) => Promise<WriteOp[]> {
  let caught: WriteOp[] = [];
  const store = {
    write: (ops: WriteOp[]) => {
      caught = ops;
      return Promise.resolve({ settled: Promise.resolve() });
    },
  } as unknown as Store;
  const repo = new SqljsLogsRepository(store, () => RETENTION);
  return async (j) => {
    await repo.insert(`log_${String(j).padStart(26, '0')}`, capture(j), 'durable');
    return caught;
  };
}

function capture(j: number): NewLog {
  return seededLog(j, {
    accountId: ACCOUNT,
    endpointIds: ENDPOINTS,
    receivedAt: START + j * STEP_MS,
    withBodies: true,
  });
}

interface Subject {
  name: string;
  db: Database;
  /** Prepared once and reused, as the store's worker does (a trigger is compiled into each statement). */
  statements: Map<string, Statement>;
  next: number;
  cpuMs: number[];
  wallMs: number[];
}

function run(s: Subject, op: WriteOp): void {
  let stmt = s.statements.get(op.sql);
  if (!stmt) {
    stmt = s.db.prepare(op.sql);
    s.statements.set(op.sql, stmt);
  }
  stmt.run(op.params);
}

/** One group: the records' inserts, then the retention statements once (those of its last record). */
async function applyGroup(s: Subject, size: number, ops: (j: number) => Promise<WriteOp[]>): Promise<void> {
  let retention: WriteOp[] = [];
  s.db.run('BEGIN');
  for (let k = 0; k < size; k++) {
    const record = await ops(s.next++);
    for (const op of record) {
      if (op.sql.trimStart().startsWith('DELETE')) continue;
      run(s, op);
    }
    retention = record.filter((op) => op.sql.trimStart().startsWith('DELETE'));
  }
  for (const op of retention) run(s, op);
  s.db.run('COMMIT');
}

async function main(): Promise<void> {
  const dir = await makeTempDir('hookscope-bench-insert-');
  const SQL = await initSqlJs();
  const subjects: Subject[] = [];
  try {
    const engine = await startEngine(testConfig(dir), { onNotice: () => undefined });
    await engine.stop();
    for (const name of ['before (without logs_hourly)', 'after (with logs_hourly)']) {
      // Each its own copy of the snapshot's two databases, as the store's worker opens them.
      const { main: db } = openSnapshot(SQL, join(dir, 'store', SNAPSHOT_FILE));
      db.run('PRAGMA secure_delete = ON');
      // MEMORY stands in for the grouped apply's single transaction.
      db.run('PRAGMA journal_mode = MEMORY');
      for (const m of logsMigrations) if (m.temporary) db.run(m.temporary);
      if (name.startsWith('before')) db.exec(HOURLY_OBJECTS);
      subjects.push({ name, db, statements: new Map(), next: 0, cpuMs: [], wallMs: [] });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const ops = insertOps();
  for (const s of subjects) while (s.next < LOGS) await applyGroup(s, 1_000, ops);

  for (let run = 0; run < RUNS; run++) {
    for (const s of subjects) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let g = 0; g < GROUPS_PER_RUN; g++) await applyGroup(s, GROUP, ops);
      const c = process.cpuUsage(c0);
      s.wallMs.push(performance.now() - t0);
      s.cpuMs.push((c.user + c.system) / 1000);
    }
  }
  const records = GROUPS_PER_RUN * GROUP;
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const perRecordUs = subjects.map((s) => (median(s.cpuMs) * 1000) / records);
  for (const [i, s] of subjects.entries()) {
    const left = Number(s.db.exec('SELECT COUNT(*) FROM logs')[0]?.values[0]?.[0]);
    const check = String(s.db.exec('PRAGMA integrity_check')[0]?.values[0]?.[0]);
    if (check !== 'ok') throw new Error(`${s.name}: integrity_check says ${check}`);
    for (const stmt of s.statements.values()) stmt.free();
    console.log(
      `${s.name}: ${Math.round((records * 1000) / median(s.cpuMs))} records per CPU-second ` +
        `(${perRecordUs[i]!.toFixed(1)} us each), ${Math.round((records * 1000) / median(s.wallMs))} per wall-second; ` +
        `${left} logs stored (medians of ${RUNS} runs of ${GROUPS_PER_RUN} groups of ${GROUP})`,
    );
    s.db.close();
  }
  const [before, after] = perRecordUs as [number, number];
  console.log(
    `added per record: ${(after - before).toFixed(1)} us (${(((after - before) / before) * 100).toFixed(0)}% of the time; ` +
      `throughput ${((before / after - 1) * 100).toFixed(0)}%)`,
  );
}

await main();
