// What reading a store of a given size costs, measured the same way at every size
// (the 100,000-log part and the growth table): `hookscope serve` start-up, list pages
// with and without filters, text search, one log with its body, the metrics, and the
// engine's resident memory after all of that.
import type { ChildHandle } from './bench-child.ts';
import { timeCliStartup } from './cli-startup.ts';
import type { CheckpointMeasure, EngineChildReady, MemoryMeasure } from './engine-child.ts';
import { engineOn, SEEDED_MAX_LOGS, seedDataDir } from './seeded-store.ts';
import type { StatsMeasure } from './metrics-stats.bench.ts';
import { CLEAN_ENDPOINT, type HttpSeedResult } from './seed-http.ts';
import type { StoreBytes } from './store-bytes.ts';
import { SEARCH_TERMS } from './seed-logs.ts';
import { apiGet, summarize, timeCalls, type Timings } from './timing.ts';

export interface StoreCostOptions {
  cliStarts: number;
  listCalls: number;
  /** Calls over all filter variants together (they take turns). */
  filterCalls: number;
  searchCalls: number;
  /** `GET /api/webhooks/logs/:id` calls, over logs from all through the store. */
  detailCalls: number;
  /** Each query series stops early after this long (keeps a slow case from running on). */
  seriesBudgetMs: number;
}

export interface StoreCosts {
  /** The logs the list API reported before any query. */
  storedBefore: number;
  seedMs: number;
  snapshotMb: number;
  cliStartupMs: Timings;
  startEngineMs: number;
  list: Timings;
  /** Every filtered list call together, and each variant alone (keyed by its query, the endpoint's id left out). */
  listFiltered: Timings;
  listByFilter: Record<string, Timings>;
  search: Timings;
  searchByTerm: Record<string, Timings>;
  /** One log with its headers and body. */
  logWithBody: Timings;
  metricsApi: Record<string, Timings>;
  metricsRepo: StatsMeasure[];
  /** After start-up and all the queries above. */
  memoryAtRest: MemoryMeasure;
  /** A checkpoint after the queries (no deliveries coming)... */
  checkpointIdle: CheckpointMeasure;
  /** ...and the memory after it, with its peak since memoryAtRest (the checkpoint's copy of the database). */
  memoryCheckpoint: MemoryMeasure;
  /** The seeding through the receiver, and the search index built after it. */
  seed: HttpSeedResult;
  indexMs: number;
  /** The snapshot's tables and indexes, per delivery. */
  bytes: StoreBytes;
}

/**
 * The filtered list calls by label: each filter, combinations, and filters that match nothing
 * (every log must be ruled out, the worst case for a filter its index does not serve). The
 * seeding (seed-http.ts) fails 1 in 7 deliveries but none of the fifth endpoint's.
 */
function listFilters(endpointIds: string[]): Record<string, string> {
  const one = endpointIds[0]!;
  const clean = endpointIds[CLEAN_ENDPOINT]!;
  return {
    'status=failed': 'status=failed',
    'status=success': 'status=success',
    'endpointId=<one of 5>': `endpointId=${one}`,
    'status=failed&endpointId=<one of 5>': `status=failed&endpointId=${one}`,
    'status=failed&endpointId=<the one with none failed> (none)': `status=failed&endpointId=${clean}`,
    'eventType=push (1 in 8)': 'eventType=push',
    'eventType=push&status=failed': 'eventType=push&status=failed',
    'eventType=push&endpointId=<one of 5>': `eventType=push&endpointId=${one}`,
    'eventType=deployment (none)': 'eventType=deployment',
    'pinned=true (none)': 'pinned=true',
  };
}

/** Search terms by label: each alone, then with filters (the search's candidates narrowed by them). */
function searches(endpointIds: string[]): Record<string, string> {
  const one = endpointIds[0]!;
  const clean = endpointIds[CLEAN_ENDPOINT]!;
  const q = (t: string): string => `search=${encodeURIComponent(t)}`;
  return {
    ...Object.fromEntries(Object.values(SEARCH_TERMS).map((t) => [t, q(t)])),
    [`${SEARCH_TERMS.common}&endpointId=<one of 5>`]: `${q(SEARCH_TERMS.common)}&endpointId=${one}`,
    [`${SEARCH_TERMS.common}&status=failed&endpointId=<the one with none failed> (none)`]: `${q(SEARCH_TERMS.common)}&status=failed&endpointId=${clean}`,
  };
}

/** Calls that take turns over `variants`; the series stops at `count` or once over budget (each variant 3 times at least). */
async function rotating(
  variants: string[],
  once: (v: string) => Promise<void>,
  o: { count: number; budgetMs: number },
): Promise<{ all: Timings; byVariant: Record<string, Timings> }> {
  const raw: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v, []]));
  const all: number[] = [];
  const started = performance.now();
  for (let i = 0; i < o.count; i++) {
    if (i >= variants.length * 3 && performance.now() - started > o.budgetMs) break;
    const v = variants[i % variants.length]!;
    const t0 = performance.now();
    await once(v);
    const ms = performance.now() - t0;
    raw[v]!.push(ms);
    all.push(ms);
  }
  return { all: summarize(all), byVariant: Object.fromEntries(variants.map((v) => [v, summarize(raw[v]!)])) };
}

/** Ids of logs from the newest to the oldest: a page of 200 at five offsets spread over the store. */
async function sampleIds(get: (path: string) => Promise<any>, total: number): Promise<string[]> {
  const ids: string[] = [];
  for (let k = 0; k < 5; k++) {
    const offset = Math.max(0, Math.floor(((total - 200) * k) / 4));
    const page = (await get(`/api/webhooks/logs?limit=200&offset=${offset}`)) as { data: { logs: { id: string }[] } };
    ids.push(...page.data.logs.map((l) => l.id));
  }
  // Interleaved, so consecutive calls read logs far apart (not one page's neighbours).
  return ids
    .map((id, i) => ({ id, key: (i * 7919) % ids.length }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.id);
}

/**
 * Seeds `logs` logs into `dataDir`, times `hookscope serve` on it, starts the engine and
 * measures the reads. The engine is left running for the caller (who kills it).
 */
export async function measureStoreCosts(
  dataDir: string,
  logs: number,
  o: StoreCostOptions,
  log: (line: string) => void,
  seedOptions: { metricsRepo: boolean },
): Promise<{ costs: StoreCosts; child: ChildHandle<EngineChildReady>; endpointIds: string[] }> {
  const n = logs.toLocaleString('en-US');
  log(`${n} logs: seeding`);
  const { seedMs, seed, indexMs, endpointIds, snapshotMb, bytes, metricsRepo } = await seedDataDir(
    dataDir,
    logs,
    seedOptions,
  );
  log(
    `  ${Math.round(seedMs)} ms (${JSON.stringify(seed.statuses)}), indexed in ${Math.round(indexMs)} ms, snapshot ${snapshotMb.toFixed(0)} MB`,
  );

  log(`${n} logs: ${o.cliStarts} starts of hookscope serve`);
  const starts: number[] = [];
  for (let i = 0; i < o.cliStarts; i++)
    starts.push(await timeCliStartup(dataDir, { HOOKSCOPE_RETENTION_MAX_LOGS: String(SEEDED_MAX_LOGS) }));
  const cliStartupMs = summarize(starts);
  log(`  median ${Math.round(cliStartupMs.p50)} ms, max ${Math.round(cliStartupMs.max)} ms`);

  const child = await engineOn(dataDir, 0);
  try {
    const reads = await measureReads(child, endpointIds, o, log);
    const checkpointIdle = await child.call<CheckpointMeasure>('checkpoint');
    const memoryCheckpoint = await child.call<MemoryMeasure>('memory');
    log(
      `  checkpoint ${Math.round(checkpointIdle.checkpointMs)} ms; resident memory ${memoryCheckpoint.rssMb.toFixed(0)} MB (peak ${memoryCheckpoint.peakRssMb.toFixed(0)} MB)`,
    );
    return {
      costs: {
        seedMs,
        seed,
        indexMs,
        snapshotMb,
        bytes,
        cliStartupMs,
        startEngineMs: child.ready.startEngineMs,
        metricsRepo,
        ...reads,
        checkpointIdle,
        memoryCheckpoint,
      },
      child,
      endpointIds,
    };
  } catch (e) {
    await child.kill();
    throw e;
  }
}

/** What a store's reads cost through the API of the engine in `child` (any backend), and its memory after them. */
export type ReadCosts = Omit<
  StoreCosts,
  | 'seedMs'
  | 'seed'
  | 'indexMs'
  | 'snapshotMb'
  | 'bytes'
  | 'cliStartupMs'
  | 'startEngineMs'
  | 'metricsRepo'
  | 'checkpointIdle'
  | 'memoryCheckpoint'
>;

/**
 * List pages, filters (on the first of `endpointIds`), search, one log with its body and
 * the metrics, each in series of sequential calls, then the engine's resident memory.
 */
export async function measureReads(
  child: ChildHandle<EngineChildReady>,
  endpointIds: string[],
  o: StoreCostOptions,
  log: (line: string) => void,
): Promise<ReadCosts> {
  const { apiUrl, token } = child.ready;
  const get = (path: string) => apiGet(apiUrl, token, path);
  const storedBefore = ((await get('/api/webhooks/logs?limit=1')) as { data: { total: number } }).data.total;
  const n = storedBefore.toLocaleString('en-US');
  log(`${n} logs: engine up in ${Math.round(child.ready.startEngineMs)} ms with ${storedBefore} logs; list pages`);

  for (let i = 0; i < 5; i++) await get('/api/webhooks/logs?limit=50'); // warm-up
  const list = await timeCalls(() => get('/api/webhooks/logs?limit=50'), {
    count: o.listCalls,
    budgetMs: o.seriesBudgetMs,
    minCount: 20,
  });
  const filters = listFilters(endpointIds);
  for (const q of Object.values(filters)) await get(`/api/webhooks/logs?limit=50&${q}`); // warm-up
  const filtered = await rotating(Object.keys(filters), (f) => get(`/api/webhooks/logs?limit=50&${filters[f]}`), {
    count: o.filterCalls,
    budgetMs: o.seriesBudgetMs,
  });
  log(`  list p95 ${list.p95.toFixed(1)} ms, with filters p95 ${filtered.all.p95.toFixed(1)} ms`);

  log(`${n} logs: text search`);
  const terms = searches(endpointIds);
  for (const q of Object.values(terms)) await get(`/api/webhooks/logs?limit=50&${q}`); // warm-up
  const searched = await rotating(Object.keys(terms), (t) => get(`/api/webhooks/logs?limit=50&${terms[t]}`), {
    count: o.searchCalls,
    budgetMs: o.seriesBudgetMs,
  });
  log(`  search p95 ${searched.all.p95.toFixed(1)} ms over ${searched.all.n} calls`);

  log(`${n} logs: one log with its body`);
  const ids = await sampleIds(get, storedBefore);
  const first = (await get(`/api/webhooks/logs/${ids[0]}`)) as { data: { body: string } };
  if (first.data.body.length === 0) throw new Error(`log ${ids[0]} came without its body`);
  const logWithBody = await timeCalls((i) => get(`/api/webhooks/logs/${ids[i % ids.length]}`), {
    count: o.detailCalls,
    budgetMs: o.seriesBudgetMs,
    minCount: 20,
  });
  log(`  p95 ${logWithBody.p95.toFixed(1)} ms`);

  log(`${n} logs: metrics through the API`);
  const metricsApi: Record<string, Timings> = {};
  for (const w of ['24h', '30d']) {
    await get(`/api/observability/metrics?window=${w}`);
    metricsApi[w] = await timeCalls(() => get(`/api/observability/metrics?window=${w}`), {
      count: 7,
      budgetMs: o.seriesBudgetMs,
    });
  }
  const memoryAtRest = await child.call<MemoryMeasure>('memory');
  log(`  resident memory ${memoryAtRest.rssMb.toFixed(0)} MB (peak so far ${memoryAtRest.peakRssMb.toFixed(0)} MB)`);
  return {
    storedBefore,
    list,
    listFiltered: filtered.all,
    listByFilter: filtered.byVariant,
    search: searched.all,
    searchByTerm: searched.byVariant,
    logWithBody,
    metricsApi,
    memoryAtRest,
  };
}
