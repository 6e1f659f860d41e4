// Ingest goals (issues 12 and 25): 1 KB deliveries at 32 connections against the real
// receiver, HTTP Toolkit's capture engine (mockttp) and a bare node:http server, each in
// its own process, in rounds that alternate the three (so a slower minute of the shared
// machine weighs on all of them); then a Stripe endpoint that verifies every signature,
// `strict` sync, and the default again with readers (list calls, a live-events
// subscriber) running during the load.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Stripe from 'stripe';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { startChild, type ChildHandle } from './bench-child.ts';
import { countDurableLogs } from './durable-count.ts';
import type { EngineChildInput, EngineChildReady } from './engine-child.ts';
import { postLoad, webhookBody, type LoadResult } from './load.ts';
import type { ReadersInput, ReadersResult } from './readers-child.ts';
import { apiGet, timeCalls, type Timings } from './timing.ts';

export interface IngestOptions {
  /** Rounds of engine (sync `interval`), mockttp and bare, in that order each time. */
  rounds: number;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** How long to wait for the store to list every acknowledged delivery, per sync policy. */
  catchUpLimitMs: { interval: number; strict: number };
  /** Marked deliveries for the live-events latency, one every this many ms during the readers run. */
  markEveryMs: number;
  /** How long missing events of marked deliveries are waited for after the load. */
  eventGraceMs: number;
}

export interface IngestRun {
  load: LoadResult;
  cpu: CpuPerDelivery;
  /** 2xx answers over warm-up and run (every one of them acknowledged a stored log). */
  acknowledged: number;
  /** From the start of the warm-up to the end of the measured run (the pause between them included). */
  sendMs: number;
  /** Logs the API lists afterwards; null for the bare server, or when the list did not come within the limit. */
  stored: number | null;
  /**
   * From the end of the load until the list total reached the acknowledged count: reads
   * queue behind the writes the store's worker has not applied yet, so this is how far
   * the database fell behind the acknowledgements. Null for the bare server, or when
   * it did not happen within the limit.
   */
  catchUpMs: number | null;
  catchUpLimitMs: number | null;
  /**
   * The same list call once caught up (median of 5): its own round trip, which is in
   * `catchUpMs` too, so the backlog's share of that wait is `catchUpMs - listIdleMs`.
   * Null for the bare server, or when the list did not catch up.
   */
  listIdleMs: number | null;
  /**
   * Logs in the data directory after the engine was killed (SIGKILL) at that point: the
   * snapshot's plus the journaled inserts after it, i.e. what a restart recovers. Null for the bare server.
   */
  durable: number | null;
}

/** The Stripe run: every delivery signed, so the receiver verifies every one. */
export interface StripeRun extends IngestRun {
  /** The newest log's verification, read back through `GET /api/webhooks/logs/:id`. */
  newest: { scheme: string; result: string; reason: string | null } | null;
  /** Logs listed with `status=failed` (a signature the receiver refused); 0 when all verified. */
  failed: number | null;
}

/** The default-sync run again, with readers in a process of their own during the measured run. */
export interface ReadersRun {
  load: LoadResult;
  reads: ReadersResult;
}

/** mockttp's run, with what it kept: every request with its body, as HTTP Toolkit's UI gets them. */
export interface MockttpRun extends Measured {
  captured: { requests: number; bodyBytes: number };
}

/**
 * One round: the engine (default sync), mockttp, the engine with a Stripe endpoint, then bare,
 * one after the other, so each goal's ratio compares runs a minute apart at most.
 */
export interface IngestRound {
  interval: IngestRun;
  mockttp: MockttpRun;
  stripe: StripeRun;
  bare: IngestRun;
}

export interface IngestResult {
  options: IngestOptions;
  rounds: IngestRound[];
  strict: IngestRun;
  withReaders: ReadersRun;
}

const BARE = new URL('./bare-server-child.ts', import.meta.url);
const MOCKTTP = new URL('./mockttp-child.ts', import.meta.url);
const ENGINE = new URL('./engine-child.ts', import.meta.url);
const READERS = new URL('./readers-child.ts', import.meta.url);
const STRIPE_SECRET = 'whsec_hookscope_bench_secret';
/** Retention is raised so every acknowledged delivery stays listable for the count check. */
export const MAX_LOGS = 10_000_000;

export interface Measured {
  load: LoadResult;
  acknowledged: number;
  sendMs: number;
  cpu: CpuPerDelivery;
}

/**
 * CPU time per 2xx answer over the measured run, in microseconds: the server's process
 * (all its threads) and the load generator's (autocannon, in the benchmark's process).
 * On 2 cores their sum bounds the rate: at most 2,000,000 / (server + load) per second.
 */
export interface CpuPerDelivery {
  serverUs: number;
  /** Of serverUs, the server's main thread alone (the engine's HTTP side: receiver, journal, answers). */
  serverMainUs: number;
  loadUs: number;
}

/**
 * A warm-up run (not in the figures; it lets the server's JIT settle), a pause, then the
 * measured run. `headers` is asked for before each run, so a signature can carry the
 * time it is sent at; `around` runs with the measured run only.
 */
export async function measure(
  url: string,
  o: IngestOptions,
  server: ChildHandle<unknown>,
  headers: () => Record<string, string> = () => ({}),
  around?: { start(): Promise<unknown> },
): Promise<Measured> {
  const body = webhookBody(1024);
  const t0 = performance.now();
  const warm = await postLoad(url, { connections: o.connections, seconds: o.warmupSeconds, body, headers: headers() });
  await sleep(500);
  await around?.start();
  const serverBefore = await server.call<number>('cpu');
  const mainBefore = await server.call<number>('cpu-main');
  const loadBefore = process.cpuUsage();
  const load = await postLoad(url, { connections: o.connections, seconds: o.seconds, body, headers: headers() });
  const loadCpu = process.cpuUsage(loadBefore);
  const serverUs = (await server.call<number>('cpu')) - serverBefore;
  const serverMainUs = (await server.call<number>('cpu-main')) - mainBefore;
  const perOk = (us: number): number => (load.ok > 0 ? us / load.ok : 0);
  return {
    load,
    acknowledged: warm.ok + load.ok,
    sendMs: performance.now() - t0,
    cpu: { serverUs: perOk(serverUs), serverMainUs: perOk(serverMainUs), loadUs: perOk(loadCpu.user + loadCpu.system) },
  };
}

async function bare(o: IngestOptions): Promise<IngestRun> {
  const child = await startChild<{ url: string }>(BARE, null);
  try {
    return {
      ...(await measure(child.ready.url, o, child)),
      stored: null,
      catchUpMs: null,
      catchUpLimitMs: null,
      listIdleMs: null,
      durable: null,
    };
  } finally {
    await child.stop();
  }
}

async function mockttp(o: IngestOptions): Promise<MockttpRun> {
  const child = await startChild<{ url: string }>(MOCKTTP, null);
  try {
    const run = await measure(child.ready.url, o, child);
    return { ...run, captured: await child.call<MockttpRun['captured']>('captured') };
  } finally {
    await child.stop();
  }
}

/**
 * Lists until the total reaches `expected` or `limitMs` has passed since the load stopped.
 * One call usually settles it: a read is answered only after every write journaled before
 * it was applied, so its wait is the backlog's; the loop guards against a total still short.
 */
export async function waitForTotal(
  child: ChildHandle<EngineChildReady>,
  expected: number,
  limitMs: number,
): Promise<{ stored: number | null; catchUpMs: number | null }> {
  const { apiUrl, token } = child.ready;
  const t0 = performance.now();
  let stored: number | null = null;
  for (;;) {
    const left = Math.floor(limitMs - (performance.now() - t0));
    if (left <= 0) return { stored, catchUpMs: null };
    const page = await apiGet<{ data: { total: number } }>(apiUrl, token, '/api/webhooks/logs?limit=1', left).catch(
      (e: unknown) => {
        if (e instanceof Error && e.name === 'TimeoutError') return null;
        throw e;
      },
    );
    if (page === null) return { stored, catchUpMs: null };
    stored = page.data.total;
    if (stored >= expected) return { stored, catchUpMs: performance.now() - t0 };
    await sleep(20);
  }
}

/** The median of 5 list-total calls on a store with nothing left to apply. */
export async function listRoundTrip(child: ChildHandle<EngineChildReady>): Promise<number> {
  const times = await timeCalls(
    async () => void (await apiGet(child.ready.apiUrl, child.ready.token, '/api/webhooks/logs?limit=1')),
    { count: 5, budgetMs: 10_000 },
  );
  return times.p50;
}

/** A compiled engine in a child process over a temp data directory, killed and removed after `during`. */
export async function withEngine<T>(
  input: Omit<EngineChildInput, 'dataDir'>,
  during: (child: ChildHandle<EngineChildReady>, dataDir: string) => Promise<T>,
  dirPrefix = 'hookscope-bench-ingest-',
): Promise<T> {
  const dataDir = await makeTempDir(dirPrefix);
  try {
    const child = await startChild<EngineChildReady>(ENGINE, { ...input, dataDir });
    try {
      return await during(child, dataDir);
    } finally {
      await child.kill();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * After the load: the list total (bounded wait), `checks` while the engine still answers,
 * then a kill and the deliveries the data directory holds.
 */
async function settle(
  child: ChildHandle<EngineChildReady>,
  dataDir: string,
  run: Measured,
  limit: number,
  checks: (caughtUp: boolean) => Promise<void> = async () => undefined,
): Promise<IngestRun> {
  const { stored, catchUpMs } = await waitForTotal(child, run.acknowledged, limit);
  const listIdleMs = catchUpMs === null ? null : await listRoundTrip(child);
  await checks(catchUpMs !== null);
  // Killed, not stopped: a clean stop would checkpoint, which waits for every record still
  // to apply. What the files hold then is exactly what the acknowledgements promised.
  await child.kill();
  const durable = await countDurableLogs(join(dataDir, 'store'));
  return { ...run, stored, catchUpMs, catchUpLimitMs: limit, listIdleMs, durable };
}

async function engine(o: IngestOptions, sync: 'interval' | 'strict'): Promise<IngestRun> {
  return withEngine({ sync, maxLogsPerAccount: MAX_LOGS, createEndpoints: 1 }, async (child, dataDir) => {
    const { receiverUrl, endpointIds } = child.ready;
    const run = await measure(`${receiverUrl}/webhook/${endpointIds[0]}`, o, child);
    return settle(child, dataDir, run, o.catchUpLimitMs[sync]);
  });
}

async function stripe(o: IngestOptions): Promise<StripeRun> {
  const endpoint = { validationType: 'stripe', webhookSecret: STRIPE_SECRET };
  return withEngine(
    { sync: 'interval', maxLogsPerAccount: MAX_LOGS, createEndpoints: 1, endpoint },
    async (child, dataDir) => {
      const { apiUrl, token, receiverUrl, endpointIds } = child.ready;
      // One header per autocannon run, signed as it starts: the engine accepts a Stripe
      // timestamp up to 300 s old, far longer than a run.
      const sign = (): Record<string, string> => ({
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload: webhookBody(1024),
          secret: STRIPE_SECRET,
          timestamp: Math.floor(Date.now() / 1000),
        }),
      });
      const run = await measure(`${receiverUrl}/webhook/${endpointIds[0]}`, o, child, sign);
      let newest: StripeRun['newest'] = null;
      let failed: number | null = null;
      // Read once the list has caught up (before that, each read waits behind the backlog).
      const settled = await settle(child, dataDir, run, o.catchUpLimitMs.interval, async (caughtUp) => {
        if (!caughtUp) return;
        const page = await apiGet<{ data: { logs: { id: string }[] } }>(apiUrl, token, '/api/webhooks/logs?limit=1');
        const id = page.data.logs[0]?.id;
        if (id !== undefined) {
          const one = await apiGet<{ data: { verification: NonNullable<StripeRun['newest']> } }>(
            apiUrl,
            token,
            `/api/webhooks/logs/${id}`,
          );
          const { scheme, result, reason } = one.data.verification;
          newest = { scheme, result, reason };
        }
        const refused = '/api/webhooks/logs?limit=1&status=failed';
        failed = (await apiGet<{ data: { total: number } }>(apiUrl, token, refused)).data.total;
      });
      return { ...settled, newest, failed };
    },
  );
}

async function withReaders(o: IngestOptions): Promise<ReadersRun> {
  return withEngine({ sync: 'interval', maxLogsPerAccount: MAX_LOGS, createEndpoints: 1 }, async (child) => {
    const { apiUrl, token, receiverUrl, endpointIds } = child.ready;
    const input: ReadersInput = {
      apiUrl,
      token,
      receiverUrl,
      endpointId: endpointIds[0]!,
      markEveryMs: o.markEveryMs,
      graceMs: o.eventGraceMs,
    };
    const readers = await startChild<null>(READERS, input);
    try {
      const run = await measure(`${receiverUrl}/webhook/${endpointIds[0]}`, o, child, undefined, {
        start: () => readers.call('start'),
      });
      const reads = await readers.call<ReadersResult>('finish', undefined, o.eventGraceMs + 60_000);
      return { load: run.load, reads };
    } finally {
      await readers.stop();
    }
  });
}

/** An empty measure's p95 comes over IPC as null (JSON has no NaN). */
const p95 = (t: Timings): string => (t.n > 0 ? `${Number(t.p95).toFixed(1)} ms (n=${t.n})` : 'none (n=0)');

function engineLine(r: IngestRun): string {
  const listed =
    r.catchUpMs === null
      ? `not all listed within ${Math.round(r.catchUpLimitMs! / 1000)} s (${r.stored ?? 'no answer'})`
      : `listed ${r.stored} after ${Math.round(r.catchUpMs)} ms`;
  return `  ${Math.round(r.load.rps)} req/s, p99 ${r.load.p99} ms; ${r.acknowledged} acknowledged, ${listed}, ${r.durable} in the data directory after a kill`;
}

export async function benchIngest(o: IngestOptions, log: (line: string) => void): Promise<IngestResult> {
  const rounds: IngestRound[] = [];
  for (let n = 1; n <= o.rounds; n++) {
    log(`ingest: round ${n} of ${o.rounds}: engine, sync interval`);
    const i = await engine(o, 'interval');
    log(engineLine(i));
    log(`ingest: round ${n} of ${o.rounds}: mockttp (HTTP Toolkit's engine)`);
    const m = await mockttp(o);
    log(`  ${Math.round(m.load.rps)} req/s, p99 ${m.load.p99} ms; ${m.captured.requests} requests kept`);
    log(`ingest: round ${n} of ${o.rounds}: engine, stripe endpoint (every signature verified)`);
    const st = await stripe(o);
    log(`${engineLine(st)}; non-2xx ${st.load.non2xx}, newest ${st.newest?.result ?? 'unread'}, failed ${st.failed}`);
    log(`ingest: round ${n} of ${o.rounds}: bare node:http`);
    const b = await bare(o);
    log(`  ${Math.round(b.load.rps)} req/s, p99 ${b.load.p99} ms`);
    rounds.push({ interval: i, mockttp: m, stripe: st, bare: b });
  }
  log('ingest: engine, sync strict');
  const s = await engine(o, 'strict');
  log(engineLine(s));
  log('ingest: engine, sync interval, with list calls and a live-events subscriber');
  const r = await withReaders(o);
  log(
    `  ${Math.round(r.load.rps)} req/s; list p95 ${p95(r.reads.list)}, event p95 ${p95(r.reads.events)}, missed ${r.reads.missed}, reconnects ${r.reads.reconnects}`,
  );
  return { options: o, rounds, strict: s, withReaders: r };
}
