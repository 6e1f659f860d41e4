// Ingest goal (DESIGN.md "Performance goals"): 1 KB deliveries at 32 connections
// against a bare node:http server and the real receiver, each in its own process.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { startChild } from './bench-child.ts';
import { countDurableLogs } from './durable-count.ts';
import type { EngineChildInput, EngineChildReady } from './engine-child.ts';
import { postLoad, webhookBody, type LoadResult } from './load.ts';
import { apiGet } from './timing.ts';

export interface IngestOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** How long to wait for the store to list every acknowledged delivery, per sync policy. */
  catchUpLimitMs: { interval: number; strict: number };
}

export interface IngestRun {
  load: LoadResult;
  /** 2xx answers over warm-up and run (every one of them acknowledged a stored log). */
  acknowledged: number;
  /** Logs the API lists afterwards; null for the bare server, or when the list did not come within the limit. */
  stored: number | null;
  /**
   * How long that list call took: reads queue behind the writes the store's worker has
   * not applied yet, so this is how far the database fell behind the acknowledgements.
   * Null for the bare server; the limit itself when the list did not come in time.
   */
  catchUpMs: number | null;
  catchUpLimitMs: number | null;
  /**
   * Logs in the data directory after the engine was killed (SIGKILL) at that point: the
   * snapshot's plus the journaled inserts after it, i.e. what a restart recovers. Null for the bare server.
   */
  durable: number | null;
}

export interface IngestResult {
  options: IngestOptions;
  bare: IngestRun;
  interval: IngestRun;
  strict: IngestRun;
}

const BARE = new URL('./bare-server-child.ts', import.meta.url);
const ENGINE = new URL('./engine-child.ts', import.meta.url);

async function measure(url: string, o: IngestOptions): Promise<{ load: LoadResult; acknowledged: number }> {
  const body = webhookBody(1024);
  // The warm-up lets both servers' JIT settle; it is not in the figures.
  const warm = await postLoad(url, { connections: o.connections, seconds: o.warmupSeconds, body });
  await sleep(500);
  const load = await postLoad(url, { connections: o.connections, seconds: o.seconds, body });
  return { load, acknowledged: warm.ok + load.ok };
}

async function bare(o: IngestOptions): Promise<IngestRun> {
  const child = await startChild<{ url: string }>(BARE, null);
  try {
    return {
      ...(await measure(child.ready.url, o)),
      stored: null,
      catchUpMs: null,
      catchUpLimitMs: null,
      durable: null,
    };
  } finally {
    await child.stop();
  }
}

async function engine(o: IngestOptions, sync: 'interval' | 'strict'): Promise<IngestRun> {
  const dataDir = await makeTempDir('hookscope-bench-ingest-');
  // Retention is raised so every acknowledged delivery stays listable for the count check.
  const input: EngineChildInput = { dataDir, sync, maxLogsPerAccount: 10_000_000, createEndpoints: 1 };
  const child = await startChild<EngineChildReady>(ENGINE, input);
  const limit = o.catchUpLimitMs[sync];
  try {
    const { apiUrl, receiverUrl, token, endpointIds } = child.ready;
    const run = await measure(`${receiverUrl}/webhook/${endpointIds[0]}`, o);
    const t0 = performance.now();
    const page = await apiGet<{ data: { total: number } }>(apiUrl, token, '/api/webhooks/logs?limit=1', limit).catch(
      (e: unknown) => {
        if (e instanceof Error && e.name === 'TimeoutError') return null;
        throw e;
      },
    );
    const catchUpMs = performance.now() - t0;
    // Killed, not stopped: a clean stop would checkpoint, which waits for every record still
    // to apply. What the files hold then is exactly what the acknowledgements promised.
    await child.kill();
    const durable = await countDurableLogs(join(dataDir, 'store'));
    return { ...run, stored: page?.data.total ?? null, catchUpMs, catchUpLimitMs: limit, durable };
  } finally {
    await child.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function engineLine(r: IngestRun): string {
  const listed =
    r.stored === null
      ? `not listed within ${Math.round(r.catchUpLimitMs! / 1000)} s (the store was still applying)`
      : `listed ${r.stored} after ${Math.round(r.catchUpMs!)} ms`;
  return `  ${Math.round(r.load.rps)} req/s, p99 ${r.load.p99} ms; ${r.acknowledged} acknowledged, ${listed}, ${r.durable} in the data directory after a kill`;
}

export async function benchIngest(o: IngestOptions, log: (line: string) => void): Promise<IngestResult> {
  log('ingest: bare node:http');
  const b = await bare(o);
  log(`  ${Math.round(b.load.rps)} req/s, p99 ${b.load.p99} ms`);
  log('ingest: engine, sync interval');
  const i = await engine(o, 'interval');
  log(engineLine(i));
  log('ingest: engine, sync strict');
  const s = await engine(o, 'strict');
  log(engineLine(s));
  return { options: o, bare: b, interval: i, strict: s };
}
