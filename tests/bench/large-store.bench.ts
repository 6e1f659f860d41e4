// The goals at 100,000 stored logs (DESIGN.md "Performance goals"): list and search
// latency, resident memory, start-up, and the event-loop stall of a checkpoint
// while deliveries keep coming. Also the metrics queries at that size.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import { logsMigrations } from '../../server/logs/logs-migrations.ts';
import { SqljsStore } from '../../server/store/sqljs-store.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { startChild, type ChildHandle } from './bench-child.ts';
import { timeCliStartup } from './cli-startup.ts';
import type {
  CheckpointMeasure,
  EngineChildInput,
  EngineChildReady,
  LoopDelay,
  MemoryMeasure,
} from './engine-child.ts';
import { postLoad, webhookBody, type LoadResult } from './load.ts';
import { measureMetricsStats, type StatsMeasure } from './metrics-stats.bench.ts';
import { SEARCH_TERMS, seedLogs } from './seed-logs.ts';
import { apiGet, summarize, timeCalls, type Timings } from './timing.ts';

export interface LargeStoreOptions {
  logs: number;
  cliStarts: number;
  listCalls: number;
  searchCalls: number;
  /** Each query series stops early after this long (keeps a slow case from running on). */
  seriesBudgetMs: number;
  connections: number;
  /** Deliveries per second during the steady checkpoint: a rate the store keeps up with at this size. */
  steadyRate: number;
  /** Length of the full-speed burst in which a second checkpoint is asked for... */
  burstSeconds: number;
  /** ...and how long that checkpoint is watched at most (it queues behind the worker's backlog). */
  burstWatchMs: number;
}

/** A checkpoint with deliveries coming in: the engine's view and the senders'. */
export interface CheckpointUnderLoad {
  loopBefore: LoopDelay;
  checkpoint: CheckpointMeasure;
  load: LoadResult;
  memory: MemoryMeasure;
}

export interface LargeStoreResult {
  options: LargeStoreOptions;
  seedMs: number;
  storedBefore: number;
  snapshotMb: number;
  cliStartupMs: Timings;
  startEngineMs: number;
  list: Timings;
  search: Timings;
  searchByTerm: Record<string, Timings>;
  metricsApi: Record<string, Timings>;
  metricsRepo: StatsMeasure[];
  memoryAtRest: MemoryMeasure;
  checkpointIdle: CheckpointMeasure;
  steady: CheckpointUnderLoad;
  burst: CheckpointUnderLoad;
}

const ENGINE = new URL('./engine-child.ts', import.meta.url);
const DAY = 86_400_000;
const MAX_LOGS = 10_000_000;

async function engineOn(dataDir: string, createEndpoints: number): Promise<ChildHandle<EngineChildReady>> {
  const input: EngineChildInput = { dataDir, sync: 'interval', maxLogsPerAccount: MAX_LOGS, createEndpoints };
  return startChild<EngineChildReady>(ENGINE, input);
}

interface Seeded {
  seedMs: number;
  endpointIds: string[];
  snapshotMb: number;
  metricsRepo: StatsMeasure[];
}

/** A data directory a real engine made (account, key, endpoints), then `logs` logs inserted straight into its store. */
async function seed(dataDir: string, logs: number): Promise<Seeded> {
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
    const metricsRepo = await measureMetricsStats(store, account, now, ['24h', '30d']);
    const cp = await store.checkpoint();
    return { seedMs, endpointIds, snapshotMb: cp.bytes / (1024 * 1024), metricsRepo };
  } finally {
    await store.close();
  }
}

/**
 * Deliveries start, the event-loop delay is sampled for 1.5 s without a checkpoint,
 * then a checkpoint runs with the delay monitor on (watched for `watchMs` at most);
 * deliveries go on until a second after that, or until `seconds` at most.
 */
async function checkpointUnderLoad(
  child: ChildHandle<EngineChildReady>,
  url: string,
  load: { connections: number; seconds: number; rate?: number },
  watchMs: number,
): Promise<CheckpointUnderLoad> {
  const measured = (async () => {
    await sleep(1_000);
    const loopBefore = await child.call<LoopDelay>('loopDelay', 1_500);
    const checkpoint = await child.call<CheckpointMeasure>('checkpoint', watchMs, watchMs + 30_000);
    return { loopBefore, checkpoint };
  })();
  const loading = postLoad(url, { ...load, body: webhookBody(1024), stopWhen: measured.then(() => sleep(1_000)) });
  const [m, result] = await Promise.all([measured, loading]);
  return { ...m, load: result, memory: await child.call<MemoryMeasure>('memory') };
}

export async function benchLargeStore(o: LargeStoreOptions, log: (line: string) => void): Promise<LargeStoreResult> {
  const dataDir = await makeTempDir('hookscope-bench-large-');
  try {
    log(`large store: seeding ${o.logs} logs`);
    const { seedMs, endpointIds, snapshotMb, metricsRepo } = await seed(dataDir, o.logs);
    log(`  ${Math.round(seedMs)} ms, snapshot ${snapshotMb.toFixed(0)} MB`);

    log(`large store: ${o.cliStarts} starts of hookscope serve`);
    const starts: number[] = [];
    for (let i = 0; i < o.cliStarts; i++)
      starts.push(await timeCliStartup(dataDir, { HOOKSCOPE_RETENTION_MAX_LOGS: String(MAX_LOGS) }));
    const cliStartupMs = summarize(starts);
    log(`  median ${Math.round(cliStartupMs.p50)} ms, max ${Math.round(cliStartupMs.max)} ms`);

    const child = await engineOn(dataDir, 0);
    try {
      const { apiUrl, receiverUrl, token } = child.ready;
      const get = (path: string) => apiGet(apiUrl, token, path);
      const storedBefore = ((await get('/api/webhooks/logs?limit=1')) as { data: { total: number } }).data.total;
      log(
        `large store: engine up in ${Math.round(child.ready.startEngineMs)} ms with ${storedBefore} logs; list pages`,
      );

      for (let i = 0; i < 5; i++) await get('/api/webhooks/logs?limit=50'); // warm-up
      const list = await timeCalls(() => get('/api/webhooks/logs?limit=50'), {
        count: o.listCalls,
        budgetMs: o.seriesBudgetMs,
        minCount: 20,
      });
      log(`  list p95 ${list.p95.toFixed(1)} ms`);

      log('large store: text search');
      const terms = Object.values(SEARCH_TERMS);
      const raw: Record<string, number[]> = Object.fromEntries(terms.map((t) => [t, []]));
      await get(`/api/webhooks/logs?limit=50&search=${encodeURIComponent(terms[0]!)}`); // warm-up
      const all: number[] = [];
      const started = performance.now();
      for (let i = 0; i < o.searchCalls; i++) {
        if (i >= terms.length * 3 && performance.now() - started > o.seriesBudgetMs) break;
        const term = terms[i % terms.length]!;
        const t0 = performance.now();
        await get(`/api/webhooks/logs?limit=50&search=${encodeURIComponent(term)}`);
        const ms = performance.now() - t0;
        raw[term]!.push(ms);
        all.push(ms);
      }
      const search = summarize(all);
      const searchByTerm = Object.fromEntries(terms.map((t) => [t, summarize(raw[t]!)]));
      log(`  search p95 ${search.p95.toFixed(1)} ms over ${search.n} calls`);

      log('large store: metrics through the API');
      const metricsApi: Record<string, Timings> = {};
      for (const w of ['24h', '30d']) {
        await get(`/api/observability/metrics?window=${w}`);
        metricsApi[w] = await timeCalls(() => get(`/api/observability/metrics?window=${w}`), {
          count: 7,
          budgetMs: o.seriesBudgetMs,
        });
      }
      const memoryAtRest = await child.call<MemoryMeasure>('memory');
      log(
        `  resident memory ${memoryAtRest.rssMb.toFixed(0)} MB (peak so far ${memoryAtRest.peakRssMb.toFixed(0)} MB)`,
      );

      log('large store: checkpoint while idle');
      const checkpointIdle = await child.call<CheckpointMeasure>('checkpoint');
      await child.call<MemoryMeasure>('memory'); // the next peak is the loaded checkpoint's own
      const url = `${receiverUrl}/webhook/${endpointIds[0]}`;
      log(`large store: checkpoint at a steady ${o.steadyRate} deliveries/s`);
      const steady = await checkpointUnderLoad(
        child,
        url,
        { connections: o.connections, seconds: 60, rate: o.steadyRate },
        60_000,
      );
      log(
        `  checkpoint ${Math.round(steady.checkpoint.checkpointMs)} ms, longest stall ${steady.checkpoint.maxMs.toFixed(1)} ms, peak ${steady.memory.peakRssMb.toFixed(0)} MB`,
      );
      log(`large store: checkpoint in a ${o.burstSeconds} s full-speed burst`);
      const burst = await checkpointUnderLoad(
        child,
        url,
        { connections: o.connections, seconds: o.burstSeconds },
        o.burstWatchMs,
      );
      const waited = burst.checkpoint.completed ? 'took' : 'not done after';
      log(
        `  checkpoint ${waited} ${Math.round(burst.checkpoint.checkpointMs)} ms, longest stall ${burst.checkpoint.maxMs.toFixed(1)} ms, peak ${burst.memory.peakRssMb.toFixed(0)} MB`,
      );

      return {
        options: o,
        seedMs,
        storedBefore,
        snapshotMb,
        cliStartupMs,
        startEngineMs: child.ready.startEngineMs,
        list,
        search,
        searchByTerm,
        metricsApi,
        metricsRepo,
        memoryAtRest,
        checkpointIdle,
        steady,
        burst,
      };
    } finally {
      // Killed, not stopped: after the burst a clean stop would wait for the worker's whole backlog.
      await child.kill();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
