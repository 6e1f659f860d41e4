// Issue 23's goals for `serve --database` (DESIGN.md, PostgreSQL beside the engine on
// this machine): ingest on PostgreSQL against the embedded store in the same run, then
// 100,000 logs seeded through the receiver and the reads and memory at that size.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, startPostgresCluster, type TestServer } from '../helpers/postgres.ts';
import type { ChildHandle } from './bench-child.ts';
import { countDurableLogs } from './durable-count.ts';
import type { EngineChildInput, EngineChildReady, MemoryMeasure } from './engine-child.ts';
import {
  listRoundTrip,
  MAX_LOGS,
  measure,
  waitForTotal,
  withEngine,
  type IngestOptions,
  type Measured,
} from './ingest.bench.ts';
import { SEED_FAILED_EVERY, seedThroughReceiver, type HttpSeedResult } from './seed-http.ts';
import { measureReads, type ReadCosts, type StoreCostOptions } from './store-costs.ts';
import { apiGet } from './timing.ts';

export interface PostgresOptions extends StoreCostOptions {
  /** The ingest runs: the same load as the embedded ingest part. */
  ingest: IngestOptions;
  logs: number;
  endpoints: number;
  seedConnections: number;
  seedMaxSeconds: number;
}

/** One ingest run on a fresh engine (sync `interval`), then a kill and the logs its store holds. */
export interface StoreIngestRun extends Measured {
  stored: number | null;
  catchUpMs: number | null;
  listIdleMs: number | null;
  /** Logs the store holds after the engine was killed (SIGKILL): what a restart has. */
  durable: number;
  /**
   * PostgreSQL's server processes' CPU time (all of them: backends, WAL writer, ...) per
   * acknowledged delivery, over warm-up and run; null for the embedded store.
   */
  postgresCpuUs: number | null;
}

export interface PostgresResult {
  options: PostgresOptions;
  /** `SELECT version()` and the durability settings the cluster ran with. */
  server: { version: string; fsync: string; synchronousCommit: string };
  embedded: StoreIngestRun;
  postgres: StoreIngestRun;
  seed: HttpSeedResult & { stored: number; failed: number };
  reads: ReadCosts;
  memory: {
    /** The engine just started on the empty database, its endpoints made. */
    empty: MemoryMeasure;
    /** Peak while the seeding ran, and resident once it was done. */
    seeding: MemoryMeasure;
    /** A fresh engine process started on the seeded database (its reads and memory after them are `reads`). */
    started: MemoryMeasure;
  };
  /** The VACUUM (ANALYZE) between the seeding and the reads. */
  vacuumMs: number;
  /** The database's size (pg_database_size) at the end. */
  databaseMb: number;
}

const fmtCount = (n: number): string => n.toLocaleString('en-US');
const SEED_SECRET = 'hookscope-bench-github-secret';

async function onDatabase<T>(url: string, sql: string): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0] as T;
  } finally {
    await client.end();
  }
}

/** Clock ticks per second of /proc's CPU times. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * CPU time so far (user + system, µs) of each of the cluster's processes that
 * pg_stat_activity lists (backends and background processes; the postmaster aside),
 * read from /proc.
 */
async function postgresCpu(adminUrl: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity');
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        // After the command's closing parenthesis: state is field 0, utime 11, stime 12.
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        cpu.set(pid, ((Number(f[11]) + Number(f[12])) * 1e6) / TICKS);
      } catch {
        // gone meanwhile: its time is lost to the measure, which the note on the figure allows
      }
    }
    return cpu;
  } finally {
    await client.end();
  }
}

/** The ingest part's engine child, its data directory named for this part. */
const withPostgresEngine = <T>(
  input: Omit<EngineChildInput, 'dataDir'>,
  during: (child: ChildHandle<EngineChildReady>, dataDir: string) => Promise<T>,
): Promise<T> => withEngine(input, during, 'hookscope-bench-postgres-');

/** Each process's CPU since `before` (a process started since counts whole). */
function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let us = 0;
  for (const [pid, now] of after) us += now - (before.get(pid) ?? 0);
  return us;
}

/** The embedded ingest run (sync `interval`), on the data directory's store or on `databaseUrl`. */
async function ingestRun(o: IngestOptions, database?: { url: string; adminUrl: string }): Promise<StoreIngestRun> {
  const databaseUrl = database?.url;
  const input = { sync: 'interval' as const, maxLogsPerAccount: MAX_LOGS, createEndpoints: 1, databaseUrl };
  return withPostgresEngine(input, async (child, dataDir) => {
    const { receiverUrl, endpointIds } = child.ready;
    const cpuBefore = database && (await postgresCpu(database.adminUrl));
    const run = await measure(`${receiverUrl}/webhook/${endpointIds[0]}`, o, child);
    const postgresCpuUs =
      database && cpuBefore ? cpuSince(cpuBefore, await postgresCpu(database.adminUrl)) / run.acknowledged : null;
    const { stored, catchUpMs } = await waitForTotal(child, run.acknowledged, o.catchUpLimitMs.interval);
    const listIdleMs = catchUpMs === null ? null : await listRoundTrip(child);
    await child.kill();
    const durable =
      databaseUrl === undefined
        ? await countDurableLogs(join(dataDir, 'store'))
        : Number((await onDatabase<{ n: string }>(databaseUrl, 'SELECT count(*) AS n FROM logs')).n);
    return { ...run, stored, catchUpMs, listIdleMs, durable, postgresCpuUs };
  });
}

const ingestLine = (r: StoreIngestRun): string =>
  `  ${Math.round(r.load.rps)} req/s, p99 ${r.load.p99} ms; ${r.acknowledged} acknowledged, ${r.stored ?? 'not all'} listed, ${r.durable} stored after a kill; CPU per 2xx: engine ${Math.round(r.cpu.serverUs)} µs, PostgreSQL ${r.postgresCpuUs === null ? '-' : `${Math.round(r.postgresCpuUs)} µs`}`;

export async function benchPostgres(o: PostgresOptions, log: (line: string) => void): Promise<PostgresResult> {
  log('postgres: starting a cluster (fsync and synchronous_commit on, loopback only)');
  const cluster: TestServer = await startPostgresCluster({ durable: true });
  try {
    const admin = cluster.adminUrl;
    const server = await onDatabase<{ version: string; fsync: string; synchronous_commit: string }>(
      admin,
      "SELECT version(), current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS synchronous_commit",
    );
    log(`  ${server.version.split(',')[0]}, fsync ${server.fsync}, synchronous_commit ${server.synchronous_commit}`);

    log('postgres: ingest, embedded store (sync interval)');
    const embedded = await ingestRun(o.ingest);
    log(ingestLine(embedded));
    log('postgres: ingest, serve --database');
    const ingestDb = await createDatabase(admin);
    const postgres = await ingestRun(o.ingest, { url: ingestDb.url, adminUrl: admin }).finally(() => ingestDb.drop());
    log(ingestLine(postgres));
    log(`  ratio ${(postgres.load.rps / embedded.load.rps).toFixed(2)}`);

    const db = await createDatabase(admin);
    try {
      const input = {
        sync: 'interval' as const,
        maxLogsPerAccount: MAX_LOGS,
        createEndpoints: o.endpoints,
        endpoint: { validationType: 'github', webhookSecret: SEED_SECRET },
        databaseUrl: db.url,
      };
      const seeded = await withPostgresEngine(input, async (child) => {
        const { apiUrl, token, receiverUrl, endpointIds } = child.ready;
        const empty = await child.call<MemoryMeasure>('memory');
        log(`postgres: seeding ${fmtCount(o.logs)} logs through the receiver (${o.seedConnections} connections)`);
        const sent = await seedThroughReceiver({
          receiverUrl,
          endpointIds,
          secret: SEED_SECRET,
          count: o.logs,
          connections: o.seedConnections,
          maxSeconds: o.seedMaxSeconds,
        });
        const seeding = await child.call<MemoryMeasure>('memory');
        const total = (path: string) =>
          apiGet<{ data: { total: number } }>(apiUrl, token, path).then((page) => page.data.total);
        const stored = await total('/api/webhooks/logs?limit=1');
        const failed = await total('/api/webhooks/logs?limit=1&status=failed');
        log(
          `  ${Math.round(sent.ms)} ms (${JSON.stringify(sent.statuses)}); ${stored} stored, ${failed} failed verification (1 in ${SEED_FAILED_EVERY} sent so)`,
        );
        return { seed: { ...sent, stored, failed }, endpointIds, empty, seeding };
      });
      // What autovacuum leaves shortly after a bulk of inserts (visibility map, statistics),
      // so the reads do not measure a vacuum running beside them.
      const v0 = performance.now();
      await onDatabase(db.url, 'VACUUM (ANALYZE)');
      const vacuumMs = performance.now() - v0;
      log(`postgres: VACUUM (ANALYZE) ${Math.round(vacuumMs)} ms; a fresh engine on the ${fmtCount(o.logs)} logs`);
      // A fresh engine process, as the embedded 100,000-log part starts one on its seeded store.
      const reading = { ...input, createEndpoints: 0 };
      const { reads, started } = await withPostgresEngine(reading, async (child) => {
        const started = await child.call<MemoryMeasure>('memory');
        return { started, reads: await measureReads(child, seeded.endpointIds, o, log) };
      });
      const size = await onDatabase<{ bytes: string }>(db.url, 'SELECT pg_database_size(current_database()) AS bytes');
      return {
        options: o,
        server: { version: server.version, fsync: server.fsync, synchronousCommit: server.synchronous_commit },
        embedded,
        postgres,
        seed: seeded.seed,
        vacuumMs,
        reads,
        memory: { empty: seeded.empty, seeding: seeded.seeding, started },
        databaseMb: Number(size.bytes) / (1024 * 1024),
      };
    } finally {
      await db.drop();
    }
  } finally {
    cluster.stop();
  }
}
