// A data directory as the store-size benchmarks use it: a real engine makes it (account,
// key, five GitHub endpoints) and receives the deliveries over HTTP, as users' stores fill.
import { join } from 'node:path';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import { UNINDEXED_WORD } from '../../server/logs/search-index.ts';
import { storedBodies } from '../../server/storage/sqljs/log-search-sqljs.ts';
import { SearchBackfill } from '../../server/storage/sqljs/search-backfill.ts';
import { SNAPSHOT_FILE } from '../../server/store/journal-files.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import { startChild, type ChildHandle } from './bench-child.ts';
import type { EngineChildInput, EngineChildReady } from './engine-child.ts';
import { measureMetricsStats, type StatsMeasure } from './metrics-stats.bench.ts';
import { seedFails, seedThroughReceiver, type HttpSeedResult } from './seed-http.ts';
import { storeBytes, type StoreBytes } from './store-bytes.ts';
import { apiGet } from './timing.ts';

const ENGINE = new URL('./engine-child.ts', import.meta.url);
const DAY = 86_400_000;
/** Retention for the seeded stores: far above any size measured, so nothing is evicted. */
export const SEEDED_MAX_LOGS = 10_000_000;
/** The seeded endpoints' secret: later deliveries to them sign with it (githubSignature). */
export const SEED_SECRET = 'hookscope-bench-github-secret';

/** The engine in its own process on `dataDir` (sync `interval`, the rate limiter off). */
export async function engineOn(
  dataDir: string,
  createEndpoints: number,
  maxLogsPerAccount = SEEDED_MAX_LOGS,
): Promise<ChildHandle<EngineChildReady>> {
  const input: EngineChildInput = { dataDir, sync: 'interval', maxLogsPerAccount, createEndpoints };
  return startChild<EngineChildReady>(ENGINE, input);
}

export interface Seeded {
  /** Sending the deliveries until the list total reached them. */
  seedMs: number;
  seed: HttpSeedResult;
  /** Indexing for search what the seeding engine left unindexed (it waits while deliveries come at full speed). */
  indexMs: number;
  endpointIds: string[];
  snapshotMb: number;
  bytes: StoreBytes;
  /** The metrics stats query alone on the seeded logs; empty unless asked for. */
  metricsRepo: StatsMeasure[];
}

/**
 * Five GitHub endpoints made by a real engine, then `logs` deliveries through its receiver
 * (seed-http.ts: unique bodies, 1 in 100 of 64-256 KB, 1 in 7 failing verification, none
 * failing on the fifth endpoint), stamped over 30 days by the engine's spread clock.
 *
 * The seeding engine indexes for search in the background, and waits while deliveries
 * come at full speed, so it stops with most logs unindexed; the engine started on the
 * store would then index them all while being measured. They are indexed here instead,
 * by the same indexer (SearchBackfill) on the store opened without an engine, before
 * anything is measured: the store is then as a user's is after a month.
 */
export async function seedDataDir(dataDir: string, logs: number, o: { metricsRepo: boolean }): Promise<Seeded> {
  const input: EngineChildInput = {
    dataDir,
    sync: 'interval',
    maxLogsPerAccount: SEEDED_MAX_LOGS,
    createEndpoints: 5,
    endpoint: { validationType: 'github', webhookSecret: SEED_SECRET },
    spreadClock: { spanMs: 30 * DAY, deliveries: logs },
  };
  const seeding = await startChild<EngineChildReady>(ENGINE, input);
  const { apiUrl, token, receiverUrl, endpointIds } = seeding.ready;
  let seed: HttpSeedResult;
  let seedMs: number;
  try {
    const t0 = performance.now();
    seed = await seedThroughReceiver({
      receiverUrl,
      endpointIds,
      secret: SEED_SECRET,
      count: logs,
      connections: 32,
      maxSeconds: 600,
    });
    const total = (q: string) =>
      apiGet<{ data: { total: number } }>(apiUrl, token, `/api/webhooks/logs?limit=1${q}`, 120_000).then(
        (p) => p.data.total,
      );
    const stored = await total('');
    seedMs = performance.now() - t0;
    const failed = await total('&status=failed');
    let expectedFailed = 0;
    for (let n = 0; n < logs; n++) if (seedFails(n)) expectedFailed++;
    if (stored !== logs || failed !== expectedFailed)
      throw new Error(`seeded ${stored} logs (${failed} failed); expected ${logs} (${expectedFailed} failed)`);
  } finally {
    await seeding.stop(120_000);
  }

  const store = await SqljsStore.open({
    dir: join(dataDir, 'store'),
    // Only the logs feature's tables are read and written; the engine's other features are left as they are.
    migrations: [{ feature: 'logs', migrations: logsMigrations }],
    checkpointBytes: 1 << 30,
    checkpointIntervalMs: 3_600_000,
  });
  let indexMs: number;
  let metricsRepo: StatsMeasure[];
  let snapshotMb: number;
  try {
    const i0 = performance.now();
    const failures: unknown[] = [];
    const indexer = new SearchBackfill(store, storedBodies(store), (e) => failures.push(e));
    indexer.start();
    await indexer.idle();
    await indexer.stop();
    if (failures.length > 0) throw failures[0];
    indexMs = performance.now() - i0;
    const left = await store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM log_search WHERE w0 = ${UNINDEXED_WORD}`);
    if (left?.n !== 0) throw new Error(`${left?.n} logs left unindexed after the indexer went idle`);
    // The metrics queries alone, on exactly the seeded logs (later phases add deliveries).
    metricsRepo = o.metricsRepo
      ? await measureMetricsStats(store, accountIdFor(LOCAL_ACCOUNT), Date.now(), ['24h', '30d'])
      : [];
    snapshotMb = (await store.checkpoint()).bytes / (1024 * 1024);
  } finally {
    await store.close();
  }
  const bytes = await storeBytes(join(dataDir, 'store', SNAPSHOT_FILE));
  return { seedMs, seed, indexMs, endpointIds, snapshotMb, bytes, metricsRepo };
}
