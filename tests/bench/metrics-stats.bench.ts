// Measures the logs feature's metrics aggregation at 100,000 stored logs.
// Run: node --import tsx tests/bench/metrics-stats.bench.ts [--no-index]
// (--no-index leaves out migration 31, to see what the logs_by_received_at index buys.)
// A measurement to read, never a timed assertion.
import { rm } from 'node:fs/promises';
import { ALL_MIGRATIONS } from '../../server/engine/engine.ts';
import { LogsRepository } from '../../server/logs/logs-repository.ts';
import { metricsWindow, METRICS_WINDOWS } from '../../server/metrics/metrics-window.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import type { WriteOp } from '../../server/store/store-types.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

const LOGS = 100_000;
const BATCH = 2_000;
const DAY = 86_400_000;
const now = Date.parse('2025-01-15T12:30:00.000Z');
const noIndex = process.argv.includes('--no-index');

const dir = await makeTempDir('hookscope-bench-');
const store = await SqljsStore.open({
  dir,
  migrations: ALL_MIGRATIONS.filter((m) => !(noIndex && m.version === 31)),
  checkpointIntervalMs: 3_600_000,
  checkpointBytes: 1 << 30,
});
try {
  const verification = (reason: string | null) =>
    JSON.stringify({ scheme: 'hmac_sha256', result: reason ? 'invalid' : 'valid', reason, detail: null, matchedSecret: null });
  const reasons = ['missing_header', 'no_matching_signature', 'timestamp_outside_tolerance'];
  const started = performance.now();
  for (let i = 0; i < LOGS; i += BATCH) {
    const ops: WriteOp[] = [];
    for (let j = i; j < Math.min(LOGS, i + BATCH); j++) {
      const failed = j % 7 === 0;
      ops.push({
        sql: `INSERT INTO logs (id, account_id, endpoint_id, method, path, query, raw_headers, content_type, size,
                stored_size, truncated, source_ip, received_at, duration_ms, status, verification)
              VALUES (?, 'acc_bench', ?, 'POST', '/', '{}', '[]', 'application/json', ?, ?, 0, '127.0.0.1', ?, 1, ?, ?)`,
        params: [
          `log_${j}`,
          `ep_${j % 5}`,
          200 + ((j * 7919) % 4000),
          200 + ((j * 7919) % 4000),
          now - 30 * DAY + Math.floor((j / LOGS) * 30 * DAY),
          failed ? 'failed' : 'success',
          verification(failed ? reasons[j % 3]! : null),
        ],
      });
    }
    await store.write(ops, 'applied');
  }
  console.log(`inserted ${LOGS} logs in ${Math.round(performance.now() - started)} ms${noIndex ? ' (no received_at index)' : ''}`);

  const repo = new LogsRepository(store, { maxLogsPerAccount: LOGS * 2, maxBodyBytesTotal: 1 << 30 });
  for (const name of METRICS_WINDOWS) {
    const w = metricsWindow(name, now);
    const times: number[] = [];
    const cpu: number[] = [];
    let count = 0;
    for (let k = 0; k < 7; k++) {
      const t0 = performance.now();
      // Process CPU time includes the store's worker thread: a figure other load on the machine barely moves.
      const c0 = process.cpuUsage();
      const s = await repo.stats('acc_bench', { fromMs: w.fromMs, toMs: w.toMs, bucketMs: w.bucketMs });
      const c = process.cpuUsage(c0);
      times.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
      count = s.sizes.count;
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[3]!.toFixed(1);
    console.log(`${name.padEnd(4)} ${String(count).padStart(6)} logs in window: wall median ${median(times)} ms, cpu median ${median(cpu)} ms`);
  }
  const other = performance.now();
  await repo.stats('acc_other', { fromMs: now - 30 * DAY, toMs: now, bucketMs: DAY });
  console.log(`another account (no logs): ${(performance.now() - other).toFixed(1)} ms`);
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
