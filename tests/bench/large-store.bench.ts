// The goals at 100,000 stored logs (DESIGN.md "Performance goals"): list, filter, search
// and one-log latency, resident memory, start-up (store-costs.ts, shared with the growth
// table), and the event-loop stall of a checkpoint while deliveries keep coming.
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeTempDir } from '../helpers/temp-dir.ts';
import type { ChildHandle } from './bench-child.ts';
import type { CheckpointMeasure, EngineChildReady, LoopDelay, MemoryMeasure } from './engine-child.ts';
import { postLoad, webhookBody, type LoadResult } from './load.ts';
import { githubSignature } from './seed-http.ts';
import { SEED_SECRET, SEEDED_MAX_LOGS } from './seeded-store.ts';
import { measureStoreCosts, type StoreCostOptions, type StoreCosts } from './store-costs.ts';
import { apiGet, apiPatch } from './timing.ts';

export interface LargeStoreOptions extends StoreCostOptions {
  logs: number;
  connections: number;
  /** Deliveries per second during the steady checkpoint: a rate the store keeps up with at this size. */
  steadyRate: number;
  /** Length of each full-speed burst in which a checkpoint is asked for... */
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

export interface LargeStoreResult extends StoreCosts {
  options: LargeStoreOptions;
  steady: CheckpointUnderLoad;
  /** The goal's burst: retention holds the store at `logs` (the oldest are evicted). */
  burst: CheckpointUnderLoad;
  /** The same burst with no retention cap, so the store grows past `logs`... */
  growingBurst: CheckpointUnderLoad;
  /** ...to this many logs. */
  storedAfterGrowing: number;
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
  const body = webhookBody(1024);
  // The seeded endpoints verify GitHub's signature: signed, so these deliveries are accepted (2xx).
  const headers = { 'x-github-event': 'push', 'x-hub-signature-256': githubSignature(SEED_SECRET, body) };
  const loading = postLoad(url, { ...load, body, headers, stopWhen: measured.then(() => sleep(1_000)) });
  const [m, result] = await Promise.all([measured, loading]);
  return { ...m, load: result, memory: await child.call<MemoryMeasure>('memory') };
}

export async function benchLargeStore(o: LargeStoreOptions, log: (line: string) => void): Promise<LargeStoreResult> {
  const dataDir = await makeTempDir('hookscope-bench-large-');
  try {
    const { costs, child, endpointIds } = await measureStoreCosts(dataDir, o.logs, o, log, { metricsRepo: true });
    try {
      const url = `${child.ready.receiverUrl}/webhook/${endpointIds[0]}`;
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
      const { apiUrl, token } = child.ready;
      const retention = (maxLogsPerAccount: number) =>
        apiPatch(apiUrl, token, '/api/settings', { retention: { maxLogsPerAccount } });
      const fullSpeed = async (what: string): Promise<CheckpointUnderLoad> => {
        log(`large store: checkpoint in a ${o.burstSeconds} s full-speed burst, ${what}`);
        // From an empty journal, so the checkpoint asked for is not one its size started.
        await child.call<CheckpointMeasure>('checkpoint');
        await child.call<MemoryMeasure>('memory'); // the burst's peak is its own
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
        return burst;
      };
      // The goal is at this many logs: a user whose retention is this size (the seeded
      // store's is far above it, so that seeding evicts nothing). The steady phase's
      // deliveries above it go with the burst's first group.
      await retention(o.logs);
      const burst = await fullSpeed(`retention holding the store at ${o.logs} logs`);
      await retention(SEEDED_MAX_LOGS);
      const growingBurst = await fullSpeed('no retention cap (the store grows)');
      const storedAfterGrowing = (
        await apiGet<{ data: { total: number } }>(apiUrl, token, '/api/webhooks/logs?limit=1', 120_000)
      ).data.total;
      log(`  ${storedAfterGrowing} logs stored after it`);

      return { ...costs, options: o, steady, burst, growingBurst, storedAfterGrowing };
    } finally {
      // Killed, not stopped: after the burst a clean stop would wait for the worker's whole backlog.
      await child.kill();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
