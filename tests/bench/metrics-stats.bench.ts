// Measures the logs feature's metrics aggregation at 100,000 stored logs.
// Part of `npm run bench` (run.ts calls measureMetricsStats on its 100,000-log store);
// alone: node --import tsx tests/bench/metrics-stats.bench.ts [--wide-index]
// (--wide-index leaves out logs migration 15, which narrowed logs_by_received_at to (account_id,
// received_at): the 1h window, the one that still reads every log, then counts in the index as it
// did before; the others read log_hourly. The 1h stats name that index, so it cannot be left out
// altogether. No log is deleted here, so the trigger that looks the hour's newest log up in that
// index never runs.)
// A measurement to read, never a timed assertion.
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import { SqljsLogsRepository } from '../../server/storage/sqljs/logs-sqljs.ts';
import { metricsWindow, METRICS_WINDOWS, type MetricsWindowName } from '../../server/metrics/metrics-window.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import type { Store } from '../../server/store/store-types.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { seedLogs } from './seed-logs.ts';

const DAY = 86_400_000;

export interface StatsMeasure {
  window: MetricsWindowName;
  logsInWindow: number;
  wallMedianMs: number;
  cpuMedianMs: number;
}

/** Seven runs of the repository's stats query per window; medians of wall and process CPU time. */
export async function measureMetricsStats(
  store: Store,
  accountId: string,
  now: number,
  windows: readonly MetricsWindowName[] = METRICS_WINDOWS,
): Promise<StatsMeasure[]> {
  const repo = new SqljsLogsRepository(store, () => ({
    maxLogsPerAccount: Number.MAX_SAFE_INTEGER,
    maxBodyBytesPerAccount: Number.MAX_SAFE_INTEGER,
  }));
  const out: StatsMeasure[] = [];
  for (const name of windows) {
    const w = metricsWindow(name, now);
    const times: number[] = [];
    const cpu: number[] = [];
    let count = 0;
    for (let k = 0; k < 7; k++) {
      const t0 = performance.now();
      // Process CPU time includes the store's worker thread: a figure other load on the machine barely moves.
      const c0 = process.cpuUsage();
      const s = await repo.stats(accountId, { fromMs: w.fromMs, toMs: w.toMs, bucketMs: w.bucketMs });
      const c = process.cpuUsage(c0);
      times.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
      count = s.sizes.count;
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[3]!;
    out.push({ window: name, logsInWindow: count, wallMedianMs: median(times), cpuMedianMs: median(cpu) });
  }
  return out;
}

async function main(): Promise<void> {
  const LOGS = 100_000;
  const now = Date.parse('2025-01-15T12:30:00.000Z');
  const wideIndex = process.argv.includes('--wide-index');
  const dir = await makeTempDir('hookscope-bench-');
  const store = await SqljsStore.open({
    dir,
    // logs 15 narrowed the index by received_at this bench weighs; --wide-index makes it a no-op.
    migrations: [
      {
        feature: 'logs',
        migrations: logsMigrations.map((m) => (wideIndex && m.number === 15 ? { ...m, sql: 'SELECT 1' } : m)),
      },
    ],
    checkpointIntervalMs: 3_600_000,
    checkpointBytes: 1 << 30,
  });
  try {
    const endpointIds = [0, 1, 2, 3, 4].map((i) => `ep_${i}`);
    const ms = await seedLogs(store, {
      accountId: 'acc_bench',
      endpointIds,
      count: LOGS,
      now,
      spanMs: 30 * DAY,
      withBodies: false,
    });
    console.log(
      `inserted ${LOGS} logs in ${Math.round(ms)} ms${wideIndex ? ' (received_at index as before logs 15)' : ''}`,
    );
    for (const m of await measureMetricsStats(store, 'acc_bench', now)) {
      console.log(
        `${m.window.padEnd(4)} ${String(m.logsInWindow).padStart(6)} logs in window: wall median ${m.wallMedianMs.toFixed(1)} ms, cpu median ${m.cpuMedianMs.toFixed(1)} ms`,
      );
    }
    const other = performance.now();
    await measureMetricsStats(store, 'acc_other', now, ['30d']);
    console.log(`another account (no logs), 30d x7: ${(performance.now() - other).toFixed(1)} ms`);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
