// The real engine in its own process, for the ingest and large-store benchmarks.
// It reports what only the engine's process can see: its start-up time, its
// resident memory, and its event-loop delay (perf_hooks) while a checkpoint runs.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import { DEFAULT_CONFIG, type EngineConfig } from '../../server/config/config.ts';
import { startEngine } from '../../server/engine/engine.ts';
import { systemClock, type Clock } from '../../server/support/clock.ts';
import { answerParent, childInput } from './bench-child.ts';

export interface EngineChildInput {
  dataDir: string;
  sync: 'interval' | 'strict';
  maxLogsPerAccount: number;
  /** Endpoints to create on start (0 when the data directory already has them). */
  createEndpoints: number;
  /** Their validation type and secret; a `none` endpoint without a secret when absent. */
  endpoint?: { validationType: string; webhookSecret: string };
  /** `serve --database`: the engine on this PostgreSQL database instead of its data directory's store. */
  databaseUrl?: string;
  /**
   * Seeding: the engine's clock starts `spanMs` ago and reaches now as `deliveries` logs are
   * stored, so deliveries sent in a minute are stamped over that span as a month of traffic is.
   */
  spreadClock?: { spanMs: number; deliveries: number };
}

export interface EngineChildReady {
  apiUrl: string;
  receiverUrl: string;
  token: string;
  endpointIds: string[];
  startEngineMs: number;
}

export interface LoopDelay {
  maxMs: number;
  p99Ms: number;
}

export interface CheckpointMeasure extends LoopDelay {
  /** How long the checkpoint took, or how long it was watched when not `completed`. */
  checkpointMs: number;
  /** False when it had not finished within the cap (it goes on; the measure covers the cap). */
  completed: boolean;
}

export interface MemoryMeasure {
  rssMb: number;
  peakRssMb: number;
}

const input = childInput<EngineChildInput>();
const spread = input.spreadClock;
/** Logs stored so far (counted by their log.created events), for the spread clock. */
let stored = 0;
const spreadFrom = Date.now() - (spread?.spanMs ?? 0);
const clock: Clock = spread
  ? { now: () => spreadFrom + Math.floor(spread.spanMs * Math.min(1, stored / spread.deliveries)) }
  : systemClock;
const config: EngineConfig = {
  ...DEFAULT_CONFIG,
  dataDir: input.dataDir,
  apiPort: 0,
  receiverPort: 0,
  databaseUrl: input.databaseUrl ?? null,
  retention: { ...DEFAULT_CONFIG.retention, maxLogsPerAccount: input.maxLogsPerAccount },
  durability: {
    ...DEFAULT_CONFIG.durability,
    sync: input.sync,
    // The spread clock passes the checkpoint interval every few deliveries; the journal's size still starts them.
    ...(spread ? { checkpointIntervalMs: 2 * spread.spanMs } : {}),
  },
  // Off on purpose: the benchmark measures ingest well above the default
  // 1000/s per endpoint, which would otherwise answer most of its load with 429.
  receiver: { ...DEFAULT_CONFIG.receiver, rateLimit: { perSecond: 0, burst: 1 } },
};

const mb = (bytes: number): number => bytes / (1024 * 1024);
// Sampled all along, so a peak includes checkpoints (the snapshot is a second copy of the database).
let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 100);
sampler.unref();

const t0 = performance.now();
const engine = await startEngine(config, { clock });
const startEngineMs = performance.now() - t0;
if (spread) engine.events.subscribe(accountIdFor(LOCAL_ACCOUNT), (e) => void (e.type === 'log.created' && stored++));
// Issued at the spread clock's start: valid past its end.
const token = await engine.issueToken(undefined, spread ? 2 * spread.spanMs + DEFAULT_CONFIG.tokenTtlMs : undefined);

const endpointIds: string[] = [];
for (let i = 0; i < input.createEndpoints; i++) {
  const res = await fetch(`${engine.apiUrl}/api/endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench ${i + 1}`, ...(input.endpoint ?? { validationType: 'none' }) }),
  });
  const body = (await res.json()) as { data: { id: string } };
  if (res.status !== 201) throw new Error(`endpoint create failed: ${res.status} ${JSON.stringify(body)}`);
  endpointIds.push(body.data.id);
}

/** Runs `during` with a 1 ms event-loop delay histogram on; values come back in ms. */
async function withLoopDelay<T>(during: () => Promise<T>): Promise<{ result: T; delay: LoopDelay }> {
  const h: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  try {
    const result = await during();
    return { result, delay: { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 } };
  } finally {
    h.disable();
  }
}

const ready: EngineChildReady = {
  apiUrl: engine.apiUrl,
  receiverUrl: engine.receiverUrl,
  token,
  endpointIds,
  startEngineMs,
};
answerParent(ready, {
  /** Resident memory now and its peak since the previous call (or the start). */
  memory: async (): Promise<MemoryMeasure> => {
    const rss = process.memoryUsage.rss();
    const measure = { rssMb: mb(rss), peakRssMb: mb(Math.max(peakRss, rss)) };
    peakRss = rss;
    return measure;
  },
  loopDelay: async (ms: unknown): Promise<LoopDelay> =>
    (await withLoopDelay(() => sleep(Math.min(Number(ms), 30_000)))).delay,
  checkpoint: async (capMs: unknown): Promise<CheckpointMeasure> => {
    const cap = Math.min(Number(capMs ?? 120_000), 120_000);
    const c0 = performance.now();
    const { result: completed, delay } = await withLoopDelay(() =>
      Promise.race([engine.checkpoint().then(() => true), sleep(cap).then(() => false)]),
    );
    return { ...delay, checkpointMs: performance.now() - c0, completed };
  },
  stop: async () => {
    clearInterval(sampler);
    await engine.stop();
  },
});
