// A flood (issue 12): a million deliveries to one endpoint at full speed with the
// default retention. The engine's memory must stay under 500 MB and its data directory
// bounded while retention evicts all but the newest logs. Sending is capped in time
// (and stopped if the engine's memory runs away, to spare a shared machine), so the
// benchmark always ends; what was sent is reported either way.
import { rm } from 'node:fs/promises';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { dirBytes } from './dir-size.ts';
import type { MemoryMeasure } from './engine-child.ts';
import { postLoad, webhookBody, type LoadResult } from './load.ts';
import { residentMb } from './proc-rss.ts';
import { engineOn } from './seeded-store.ts';
import { apiGet } from './timing.ts';

export interface FloodOptions {
  deliveries: number;
  connections: number;
  /** Sending stops after this long whether or not every delivery went out. */
  maxSendSeconds: number;
  /** How long the list total is waited for afterwards (it queues behind the store's backlog). */
  catchUpLimitMs: number;
  /** Sending (and the wait after it) stops once the engine's resident memory passes this. */
  rssGuardMb: number;
  rssEveryMs: number;
  sizeEveryMs: number;
}

export interface FloodResult {
  options: FloodOptions;
  retention: { maxLogsPerAccount: number; maxBodyBytesPerAccount: number };
  checkpointBytes: number;
  deliveryBytes: number;
  load: LoadResult;
  /** Why sending ended: every delivery sent, the time cap, or the memory guard. */
  stoppedBy: 'done' | 'time' | 'memory';
  /** The memory guard fired (while sending, or while the list was waited for). */
  guardHit: boolean;
  sendMs: number;
  rss: { peakMb: number; sendEndMb: number; finalMb: number };
  dir: {
    peakMb: number;
    /** Peaks over the first and the second half of the sending time. */
    firstHalfPeakMb: number;
    secondHalfPeakMb: number;
    sendEndMb: number;
    /** Once the list answered (or its wait ran out). */
    finalMb: number;
    /** After a clean stop (its checkpoint leaves the snapshot alone); null when the engine had to be killed. */
    afterStopMb: number | null;
    samples: number;
  };
  /** What `dir.peakMb` is checked against. */
  boundMb: number;
  /** The list total afterwards; null when it did not answer within the limit. */
  listed: number | null;
  listWaitMs: number;
}

const MB = 1024 * 1024;
const DELIVERY_BYTES = 1024;

/**
 * The data directory's bound in MB: twice the checkpoint threshold (the journal fills up to it,
 * and a new segment starts while a checkpoint writes) plus four times the bodies retention keeps
 * (a log's row, headers and indexes take about as much again as its body, and a checkpoint
 * writes the new snapshot next to the old one).
 */
function boundMb(retention: FloodResult['retention'], checkpointBytes: number, deliveryBytes: number): number {
  const retainedRaw = Math.min(retention.maxLogsPerAccount * deliveryBytes, retention.maxBodyBytesPerAccount);
  return (2 * checkpointBytes + 4 * retainedRaw) / MB;
}

/**
 * Peak RSS under the goal, the data directory under its bound and not growing, and the list at
 * the retention's count. The first two hold only for a flood that was sent in full: a cut-short
 * one shows nothing about the rest.
 */
export function floodVerdicts(f: FloodResult): { memory: boolean; bounded: boolean; listed: boolean } {
  const expected = Math.min(f.load.ok, f.retention.maxLogsPerAccount);
  const whole = f.stoppedBy === 'done';
  return {
    memory: whole && f.rss.peakMb < 500,
    bounded:
      whole && f.dir.peakMb <= f.boundMb && f.dir.secondHalfPeakMb <= f.dir.firstHalfPeakMb + f.checkpointBytes / MB,
    listed: f.listed === expected,
  };
}

export async function benchFlood(o: FloodOptions, log: (line: string) => void): Promise<FloodResult> {
  const retention = DEFAULT_CONFIG.retention;
  const dataDir = await makeTempDir('hookscope-bench-flood-');
  const child = await engineOn(dataDir, 1, retention.maxLogsPerAccount);
  const timers: NodeJS.Timeout[] = [];
  try {
    const t0 = performance.now();
    const since = (): number => performance.now() - t0;

    let peakRss = 0;
    let lastRss = 0;
    let guardHit = false;
    let onGuard = (): void => undefined;
    const guard = new Promise<void>((resolve) => (onGuard = resolve));
    const sampleRss = (): void => {
      const mb = residentMb(child.pid);
      if (mb === null) return; // no /proc: the engine's own sampler gives the peak, and there is no guard
      lastRss = mb;
      peakRss = Math.max(peakRss, mb);
      if (mb > o.rssGuardMb && !guardHit) {
        guardHit = true;
        log(`  the engine's resident memory passed ${o.rssGuardMb} MB: stopping`);
        onGuard();
      }
    };
    timers.push(setInterval(sampleRss, o.rssEveryMs));

    const sizes: { atMs: number; bytes: number }[] = [];
    let sizing = false;
    const sampleSize = async (): Promise<number> => {
      const bytes = await dirBytes(dataDir);
      sizes.push({ atMs: since(), bytes });
      return bytes;
    };
    timers.push(
      setInterval(() => {
        if (sizing) return; // one walk at a time: a slow walk skips a tick instead of piling up
        sizing = true;
        void sampleSize().finally(() => (sizing = false));
      }, o.sizeEveryMs),
    );

    const url = `${child.ready.receiverUrl}/webhook/${child.ready.endpointIds[0]}`;
    log(
      `flood: ${o.deliveries.toLocaleString('en-US')} deliveries, ${o.connections} connections, default retention (${retention.maxLogsPerAccount.toLocaleString('en-US')} logs), at most ${o.maxSendSeconds} s`,
    );
    let timeUp = false;
    const cap = new Promise<void>((resolve) =>
      timers.push(
        setTimeout(() => {
          timeUp = true;
          resolve();
        }, o.maxSendSeconds * 1000),
      ),
    );
    const load = await postLoad(url, {
      connections: o.connections,
      // The cap above stops it; this is only a backstop.
      seconds: o.maxSendSeconds + 5,
      amount: o.deliveries,
      body: webhookBody(DELIVERY_BYTES),
      stopWhen: Promise.race([cap, guard]),
    });
    const sendMs = since();
    const stoppedBy = guardHit ? 'memory' : timeUp ? 'time' : 'done';
    sampleRss();
    const sendEndRss = lastRss;
    const sendEndBytes = await sampleSize();
    const sendEndAt = since();
    log(
      `  ${load.ok.toLocaleString('en-US')} answered 2xx, ${load.non2xx} other, ${load.errors + load.timeouts} errors in ${(sendMs / 1000).toFixed(1)} s (${stoppedBy}); peak ${peakRss.toFixed(0)} MB, data directory ${(sendEndBytes / MB).toFixed(0)} MB`,
    );

    log('flood: waiting for the list total');
    const w0 = performance.now();
    const listed = guardHit
      ? null
      : await Promise.race([
          apiGet<{ data: { total: number } }>(
            child.ready.apiUrl,
            child.ready.token,
            '/api/webhooks/logs?limit=1',
            o.catchUpLimitMs,
          ).then(
            (page) => page.data.total,
            (e: unknown) => {
              if (e instanceof Error && e.name === 'TimeoutError') return null;
              throw e;
            },
          ),
          guard.then(() => null),
        ]);
    const listWaitMs = performance.now() - w0;
    sampleRss();
    const finalBytes = await sampleSize();
    // The engine's own 100 ms sampler as a second opinion (and the only one without /proc).
    const own = guardHit ? null : await child.call<MemoryMeasure>('memory', undefined, 10_000).catch(() => null);
    const peakMb = Math.max(peakRss, own?.peakRssMb ?? 0);
    const finalRss = own?.rssMb ?? lastRss;
    log(
      `  ${listed !== null ? `${listed} listed` : guardHit ? 'not waited for (memory guard)' : 'no answer'} after ${Math.round(listWaitMs)} ms; peak ${peakMb.toFixed(0)} MB, data directory ${(finalBytes / MB).toFixed(0)} MB`,
    );
    for (const t of timers) clearInterval(t);
    while (sizing) await new Promise((resolve) => setTimeout(resolve, 10));

    let afterStopMb: number | null = null;
    if (listed !== null) {
      // Caught up, so a clean stop is quick; its checkpoint shows what retention leaves at rest.
      await child.stop(60_000);
      afterStopMb = (await dirBytes(dataDir)) / MB;
    }
    const half = sendMs / 2;
    const peakOf = (from: number, to: number): number =>
      Math.max(0, ...sizes.filter((s) => s.atMs > from && s.atMs <= to).map((s) => s.bytes)) / MB;
    const checkpointBytes = DEFAULT_CONFIG.durability.checkpointBytes;
    return {
      options: o,
      retention,
      checkpointBytes,
      deliveryBytes: DELIVERY_BYTES,
      load,
      stoppedBy,
      guardHit,
      sendMs,
      rss: { peakMb, sendEndMb: sendEndRss, finalMb: finalRss },
      dir: {
        peakMb: peakOf(-1, Infinity),
        firstHalfPeakMb: peakOf(-1, half),
        secondHalfPeakMb: peakOf(half, sendEndAt),
        sendEndMb: sendEndBytes / MB,
        finalMb: finalBytes / MB,
        afterStopMb,
        samples: sizes.length,
      },
      boundMb: boundMb(retention, checkpointBytes, DELIVERY_BYTES),
      listed,
      listWaitMs,
    };
  } finally {
    for (const t of timers) clearInterval(t);
    await child.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}
