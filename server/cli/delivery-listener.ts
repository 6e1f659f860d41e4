import type { ApiClient, ApiSchemas } from '../api-client/api-client.ts';
import { ApiError, NETWORK_ERROR } from '../api-client/api-error.ts';
import { abortableSleep } from '../api-client/event-follower.ts';
import { send as httpSend, type SendInput, type SendResult } from '../replay/http-sender.ts';
import type { ListenReport } from './listen-output.ts';

type LogSummary = ApiSchemas['LogSummary'];
type Outgoing = ApiSchemas['OutgoingRequest'];

/** Where a run's first catch-up starts (`--since`): after a log, or at a time. */
export type StartPoint = { afterId: string } | { sinceMs: number };

/** A doubling wait: `initialMs` after the first failure, at most `maxMs`. */
export interface RetryDelays {
  initialMs: number;
  maxMs: number;
}

/** The wait after the `attempt`-th failure in a row (1 = the first). One client, so no jitter. */
export function retryDelay(attempt: number, d: RetryDelays): number {
  return Math.min(d.maxMs, d.initialMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
}

/** Where the listener keeps its places (listen-state.ts). */
export interface PlaceStore {
  load(): Promise<Map<string, string>>;
  save(endpointId: string, logId: string): Promise<void>;
  /** Sets these places only for endpoints that have none. */
  mark(places: Map<string, string>): Promise<void>;
}

export interface ListenerOptions {
  targetUrl: string;
  resign: boolean;
  catchUp: boolean;
  /** `--since`: where the first catch-up of each endpoint starts instead of its stored place. */
  since?: StartPoint;
  timeoutMs: number;
  /** Waits between attempts at a target that refused or failed (no answer, timeout, 5xx). */
  retry: RetryDelays;
  /** Waits while the engine does not answer a request the listener makes (the event stream reconnects on its own). */
  engineRetry: RetryDelays;
  places: PlaceStore;
  report: (r: ListenReport) => void;
  signal: AbortSignal;
  /** Errors that mean the engine is away for now (besides no answer and 5xx): wait for it. */
  isEngineDown: (e: unknown) => boolean;
  /**
   * A fresh client for the same engine, when it answers 401: the token the CLI
   * mints for a local engine lives 12 hours, a listener runs for days.
   */
  reconnect: () => Promise<ApiClient>;
  /** Anything else went wrong (a token refused again, a broken state file): the listener stops. */
  onFatal: (e: unknown) => void;
  send?: (input: SendInput) => Promise<SendResult>;
  /**
   * Each attempt at the target once it is answered or failed (not one stopped mid-request), before the
   * listener moves on: the desktop app reports it to the engine (`POST /api/replay/:id/sent`), so the
   * delivery's history shows it.
   */
  onAttempt?: (log: LogSummary, request: Outgoing, result: SendResult) => Promise<void>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Logs read per page while catching up. */
  pageSize?: number;
}

type Job = { kind: 'catch-up' } | { kind: 'live'; log: LogSummary };

/**
 * A delivery comes twice only from a catch-up (at most the account's retention,
 * 10,000 logs by default) or the event stream's resume buffer meeting what was
 * already sent; ids older than this many are forgotten, so a listener running
 * for weeks does not grow without end.
 */
export const DONE_IDS_KEPT = 100_000;

/**
 * `hookscope listen`'s work: one lane per endpoint, each doing its jobs in
 * order, one at a time, so a delivery the target refuses holds back the later
 * ones of its endpoint (retried with backoff until it gets through or the user
 * stops), and other endpoints go on. On every connection each lane first
 * catches up, from its stored place, on what arrived while the listener was
 * away, then does the live deliveries queued behind that. A delivery is done
 * once the target answered (any status below 500: a 4xx is the dev server's
 * answer) or it can never be sent; only then does its endpoint's place move,
 * and no delivery is sent twice by one run (the ids done are kept, the newest
 * DONE_IDS_KEPT of them).
 */
export class DeliveryListener {
  private api: ApiClient | null = null;
  private readonly lanes = new Map<string, Lane>();
  private readonly done = new Set<string>();
  /** Live deliveries queued and not yet done: a catch-up that meets one sends it as live (only the label differs). */
  private readonly queuedLive = new Set<string>();
  /** Endpoints whose first catch-up has run (`--since` applies to the first only). */
  private readonly caughtUpOnce = new Set<string>();
  private readonly send: (input: SendInput) => Promise<SendResult>;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly pageSize: number;

  constructor(private readonly opts: ListenerOptions) {
    this.send = opts.send ?? httpSend;
    this.sleep = opts.sleep ?? abortableSleep;
    this.pageSize = opts.pageSize ?? 200;
  }

  /**
   * Before the event stream opens: gives each endpoint without a place one at
   * its newest delivery (or `''` when it has none), so a first run starts with
   * live deliveries and the next run catches up from there.
   */
  async prepare(api: ApiClient, endpointIds: readonly string[]): Promise<void> {
    const places = await this.opts.places.load();
    const marks = new Map<string, string>();
    for (const id of endpointIds) {
      if (places.has(id)) continue;
      const page = await api.get('/api/webhooks/logs', { params: { query: { endpointId: id, limit: '1' } } });
      marks.set(id, page.logs[0]?.id ?? '');
    }
    if (marks.size > 0) await this.opts.places.mark(marks);
  }

  /** The event stream is open on `api`: each endpoint's catch-up goes before the live deliveries that follow. */
  connected(api: ApiClient, endpointIds: readonly string[]): void {
    this.api = api;
    if (!this.opts.catchUp) return;
    for (const id of endpointIds) this.lane(id).push({ kind: 'catch-up' });
  }

  /** A live delivery (`log.created`) of an endpoint listened to. */
  delivered(log: LogSummary): void {
    this.queuedLive.add(log.id);
    this.lane(log.endpointId).push({ kind: 'live', log });
  }

  /** Resolves once every lane has stopped working (after the signal aborted, nothing new starts). */
  async settled(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((l) => l.idle()));
  }

  private lane(endpointId: string): Lane {
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      lane = new Lane((job) => this.run(endpointId, job), this.opts.signal, this.opts.onFatal);
      this.lanes.set(endpointId, lane);
    }
    return lane;
  }

  private async run(endpointId: string, job: Job): Promise<void> {
    if (job.kind === 'live') {
      this.queuedLive.delete(job.log.id);
      return this.forward(endpointId, job.log, false);
    }
    const first = !this.caughtUpOnce.has(endpointId);
    this.caughtUpOnce.add(endpointId);
    const place = (await this.opts.places.load()).get(endpointId);
    const start = first && this.opts.since ? this.opts.since : place !== undefined ? { afterId: place } : null;
    if (start === null) return;
    const missed = await this.missed(endpointId, start);
    for (const log of missed ?? []) {
      if (this.opts.signal.aborted) return;
      await this.forward(endpointId, log, !this.queuedLive.has(log.id));
    }
  }

  /**
   * What the catch-up sends, in arrival order; null once stopped. After a log: what
   * arrived after it (`''`: every stored log). Since a time: the stored logs received
   * since then, the whole endpoint read in arrival order (at most its retention).
   */
  private async missed(endpointId: string, start: StartPoint): Promise<LogSummary[] | null> {
    if ('afterId' in start) return this.arrivedAfter(endpointId, start.afterId === '' ? null : start.afterId);
    const stored = await this.arrivedAfter(endpointId, null);
    return stored?.filter((log) => Date.parse(log.receivedAt) >= start.sinceMs) ?? null;
  }

  /**
   * The endpoint's logs that arrived after `place` (every stored one when null), in
   * the engine's arrival order: pages after a cursor (`after`), each from the last
   * log of the page before, so a log deleted or evicted meanwhile shifts nothing. A
   * cursor deleted meanwhile: the one before it serves (what comes again is kept
   * once). The place itself gone: from the oldest stored log, said on one line;
   * eviction goes oldest first, so what is left arrived after it (unless pinned, or
   * the place was deleted by hand: then older ones are sent again rather than lost).
   */
  private async arrivedAfter(endpointId: string, place: string | null): Promise<LogSummary[] | null> {
    const found = new Map<string, LogSummary>();
    const cursors = place === null ? [] : [place];
    for (;;) {
      const cursor = cursors.at(-1);
      if (cursor === undefined) {
        // From the start: the oldest stored log, then the pages after it.
        found.clear();
        const oldest = await this.oldest(endpointId);
        if (oldest === null) return null;
        if (oldest === undefined) return [];
        found.set(oldest.id, oldest);
        cursors.push(oldest.id);
        continue;
      }
      const page = await this.pageAfter(endpointId, cursor);
      if (page === null) return null;
      if (page === 'gone') {
        cursors.pop();
        if (cursor === place) {
          this.opts.report({
            type: 'notice',
            endpointId,
            message:
              `${endpointId}: ${cursor}, where the catch-up starts, is no longer stored (deleted, or evicted by ` +
              "retention); catching up from the endpoint's oldest stored delivery.",
          });
        }
        continue;
      }
      for (const log of page.logs) {
        found.set(log.id, log);
        cursors.push(log.id);
      }
      if (!page.hasMore) return [...found.values()];
    }
  }

  /** A page after `cursor`, oldest first; 'gone' when the engine no longer has that log; null once stopped. */
  private async pageAfter(
    endpointId: string,
    cursor: string,
  ): Promise<{ logs: LogSummary[]; hasMore: boolean } | 'gone' | null> {
    try {
      return await this.engine((api) =>
        api.get('/api/webhooks/logs', {
          params: { query: { endpointId, after: cursor, limit: String(this.pageSize) } },
        }),
      );
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && e.code === 'CURSOR_NOT_FOUND') return 'gone';
      throw e;
    }
  }

  /**
   * The endpoint's oldest stored log (undefined when it has none; null once stopped):
   * the last of the newest-first list, at the offset its own total gives. A page and
   * its total are one snapshot, so the read is repeated until the total it was aimed
   * with is the one it got.
   */
  private async oldest(endpointId: string): Promise<LogSummary | undefined | null> {
    for (let total = 0; ;) {
      const page = await this.engine((api) =>
        api.get('/api/webhooks/logs', {
          params: { query: { endpointId, limit: '1', offset: String(Math.max(total - 1, 0)) } },
        }),
      );
      if (page === null) return null;
      if (page.total === 0) return undefined;
      if (page.total === total && page.logs[0] !== undefined) return page.logs[0];
      total = page.total;
    }
  }

  private async forward(endpointId: string, log: LogSummary, catchUp: boolean): Promise<void> {
    if (this.done.has(log.id)) return;
    const { signal, report } = this.opts;
    if (log.status !== 'success') {
      // As the engine's own forwarding: a delivery the receiver refused (signature check, body limit) is not passed on.
      const why = log.verification.reason ?? log.verification.result;
      report({ type: 'skipped', log, catchUp, reason: `it was refused when it arrived (${why}).` });
      return this.finish(endpointId, log.id);
    }
    for (let attempt = 1; ; attempt++) {
      const built = await this.build(log.id);
      if (built === null) return;
      if (typeof built === 'string') {
        report({ type: 'skipped', log, catchUp, reason: built });
        return this.finish(endpointId, log.id);
      }
      const result = await this.send({
        url: new URL(built.url),
        method: built.method,
        headers: built.headers,
        body: Buffer.from(built.body, built.bodyEncoding),
        timeoutMs: this.opts.timeoutMs,
        signal,
      });
      // Stopped mid-request: not done, so the next run sends it again.
      if (signal.aborted) return;
      await this.opts.onAttempt?.(log, built, result);
      if (result.error === null && result.status !== null && result.status < 500) {
        report({
          type: 'forwarded',
          log,
          catchUp,
          url: built.url,
          status: result.status,
          durationMs: result.responseTime,
          attempt,
        });
        return this.finish(endpointId, log.id);
      }
      const retryInMs = retryDelay(attempt, this.opts.retry);
      report({
        type: 'retry',
        log,
        catchUp,
        url: built.url,
        status: result.error ? null : result.status,
        durationMs: result.error ? null : result.responseTime,
        error: result.error?.message ?? null,
        attempt,
        retryInMs,
      });
      await this.sleep(retryInMs, signal);
      if (signal.aborted) return;
    }
  }

  /**
   * The request to send, built by the engine (it holds the endpoint's secret for
   * --resign); a string says why it can never be sent; null: stopped.
   */
  private async build(logId: string): Promise<Outgoing | string | null> {
    try {
      return await this.engine((api) =>
        api.post('/api/replay/{webhookLogId}/outgoing', {
          params: { path: { webhookLogId: logId } },
          body: { targetUrl: this.opts.targetUrl, resign: this.opts.resign },
        }),
      );
    } catch (e) {
      if (e instanceof ApiError && e.status === 404)
        return 'the engine no longer has it (deleted, or evicted by retention).';
      // An unsafe sub-path (400), a truncated body or no secret to re-sign with (409).
      if (e instanceof ApiError && (e.status === 400 || e.status === 409)) return e.message;
      throw e;
    }
  }

  private async finish(endpointId: string, logId: string): Promise<void> {
    this.done.add(logId);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.done.size > DONE_IDS_KEPT) this.done.delete(this.done.values().next().value!);
    await this.opts.places.save(endpointId, logId);
  }

  /**
   * Calls the engine, waiting for it (with backoff) while it does not answer,
   * and connecting again once for a 401; null once stopped.
   */
  private async engine<T>(call: (api: ApiClient) => Promise<T>): Promise<T | null> {
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      if (this.opts.signal.aborted || this.api === null) return null;
      try {
        return await untilAborted(call(this.api), this.opts.signal);
      } catch (e) {
        if (this.opts.signal.aborted) return null;
        if (!renewed && e instanceof ApiError && e.status === 401) {
          renewed = true;
          try {
            this.api = await this.opts.reconnect();
            continue;
          } catch (again) {
            if (!this.isDown(again)) throw again;
          }
        } else if (!this.isDown(e)) {
          throw e;
        }
        await this.sleep(retryDelay(attempt, this.opts.engineRetry), this.opts.signal);
      }
    }
  }

  /** No answer, a 5xx (a proxy in front of an engine that is away), or the caller's own "not running". */
  private isDown(e: unknown): boolean {
    return (e instanceof ApiError && (e.code === NETWORK_ERROR || e.status >= 500)) || this.opts.isEngineDown(e);
  }
}

/** Jobs of one endpoint, one at a time, in the order pushed. */
class Lane {
  private readonly jobs: Job[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly run: (job: Job) => Promise<void>,
    private readonly signal: AbortSignal,
    private readonly onFatal: (e: unknown) => void,
  ) {}

  push(job: Job): void {
    this.jobs.push(job);
    this.running ??= this.drain();
  }

  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    try {
      for (let job = this.jobs.shift(); job && !this.signal.aborted; job = this.jobs.shift()) await this.run(job);
    } catch (e) {
      this.onFatal(e);
    } finally {
      this.running = null;
    }
  }
}

/**
 * The call's result, or null as soon as `signal` aborts: Ctrl+C must not wait for a
 * request to an engine that does not answer (the request itself is left to fail).
 */
function untilAborted<T>(call: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  let onAbort = (): void => undefined;
  const aborted = new Promise<null>((resolve) => {
    onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([call, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
