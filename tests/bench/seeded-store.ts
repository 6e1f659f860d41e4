// A data directory as the store-size benchmarks use it: a real engine makes it
// (account, key, endpoints), then the logs go straight into its store.
import { join } from 'node:path';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import { startChild, type ChildHandle } from './bench-child.ts';
import type { EngineChildInput, EngineChildReady } from './engine-child.ts';
import { measureMetricsStats, type StatsMeasure } from './metrics-stats.bench.ts';
import { seedLogs } from './seed-logs.ts';

const ENGINE = new URL('./engine-child.ts', import.meta.url);
const DAY = 86_400_000;
/** Retention for the seeded stores: far above any size measured, so nothing is evicted. */
export const SEEDED_MAX_LOGS = 10_000_000;

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
  seedMs: number;
  endpointIds: string[];
  snapshotMb: number;
  /** The metrics stats query alone on the seeded logs; empty unless asked for. */
  metricsRepo: StatsMeasure[];
}

/**
 * Five endpoints made by a real engine, then `logs` logs (1 KB JSON bodies, spread over
 * 30 days, 1 in 7 failed, round-robin over the endpoints) inserted straight into its store.
 */
export async function seedDataDir(dataDir: string, logs: number, o: { metricsRepo: boolean }): Promise<Seeded> {
  const first = await engineOn(dataDir, 5);
  const endpointIds = first.ready.endpointIds;
  await first.stop();
  const store = await SqljsStore.open({
    dir: join(dataDir, 'store'),
    // Only the logs feature's tables are written; the engine's other features are left as they are.
    migrations: [{ feature: 'logs', migrations: logsMigrations }],
    checkpointBytes: 1 << 30,
    checkpointIntervalMs: 3_600_000,
  });
  try {
    const now = Date.now();
    const account = accountIdFor(LOCAL_ACCOUNT);
    const seedMs = await seedLogs(store, {
      accountId: account,
      endpointIds,
      count: logs,
      now,
      spanMs: 30 * DAY,
      withBodies: true,
    });
    // The metrics queries alone, on exactly the seeded logs (later phases add deliveries).
    const metricsRepo = o.metricsRepo ? await measureMetricsStats(store, account, now, ['24h', '30d']) : [];
    const cp = await store.checkpoint();
    return { seedMs, endpointIds, snapshotMb: cp.bytes / (1024 * 1024), metricsRepo };
  } finally {
    await store.close();
  }
}
