import { setTimeout as delay } from 'node:timers/promises';
import { backoffDelay } from '../support/backoff.ts';
import type { Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { probePublicUrl } from './health-probe.ts';
import { randomSubdomain } from './subdomain.ts';
import { WakeDetector } from './wake-detector.ts';
import {
  TunnelRefusedError,
  type SupervisorStatus,
  type TunnelLink,
  type TunnelProvider,
  type TunnelState,
  type TunnelTimings,
} from './tunnel-types.ts';

export interface SupervisorTarget {
  host: string;
  /** The subdomain we want (asked for again on every reconnection). */
  subdomain: string;
  localPort: number;
  /**
   * The subdomain was this install's before (remembered from an earlier run): if
   * the server still holds it for a moment after our previous connection went
   * away (the reference server keeps a tunnel 1 s after its last socket), a
   * "taken" answer is retried a few times before falling back.
   */
  remembered?: boolean;
}

export interface SupervisorDeps {
  provider: TunnelProvider;
  timings: TunnelTimings;
  probeOrigin: string | null;
  clock: Clock;
  random: Random;
  /** Where unexpected errors go (a bug, never a network failure). */
  onError: (err: unknown) => void;
  /** How often to look for a sleep of the machine (default 5 s); tests shorten it. */
  wakeCheckMs?: number;
}

export type StatusListener = (status: SupervisorStatus) => void;

/** Reconnecting while our own previous connection still holds the name is retried this many times before falling back. */
const RECLAIM_TRIES = 2;
/** ...each after at least this long: the reference server forgets a tunnel 1 s after its last socket closed. */
const RECLAIM_WAIT_MS = 1500;

/** A failed round trip is checked again this soon, not a whole probe interval later: senders may be failing meanwhile. */
const RECHECK_MS = 2000;
/** A clock this far ahead of a wake check's tick means the machine slept; a busy event loop delays a tick by far less. */
const WAKE_SLACK_MS = 10_000;
const WAKE_CHECK_MS = 5000;

/** The server gave another name while ours is probably still held by our previous connection. */
class StillHeldError extends Error {}

/**
 * Keeps one tunnel open and says honestly how it is. The client library alone
 * would crash on a forgotten tunnel, never retry, and hang while the server is
 * down, so the supervisor: listens for every failure, time-limits each opening
 * (registration, first socket, first probe), probes the public URL while
 * online, and after any drop closes the link and opens a new one with
 * exponential backoff and jitter. At most one link exists at a time: every
 * asynchronous step carries the generation it started in and cleans up what it
 * holds when a newer `expose`/`close` superseded it.
 */
export class TunnelSupervisor {
  private gen = 0;
  private target: SupervisorTarget | null = null;
  private link: TunnelLink | null = null;
  private inFlight: Promise<void> | null = null;
  private attemptAbort: AbortController | null = null;
  private probeAbort: AbortController | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  /** Consecutive failures, for the backoff. */
  private failures = 0;
  private probeMisses = 0;
  /** The lastError shown while online (a subdomain fallback), restored when a degraded tunnel recovers. */
  private onlineNotice: string | null = null;
  private readonly wake: WakeDetector;
  /** What the next attempt asks for: the wanted subdomain, or a fresh one after the server refused it. */
  private asking: string | null = null;
  private heldWanted = false;
  private reclaimTries = 0;
  private current: SupervisorStatus;
  private readonly listeners = new Set<StatusListener>();

  constructor(private readonly deps: SupervisorDeps) {
    this.current = {
      state: 'disabled',
      url: null,
      since: deps.clock.now(),
      lastError: null,
      attempts: 0,
      host: '',
      subdomain: null,
      checkedAt: null,
      roundTripMs: null,
      retryAt: null,
    };
    this.wake = new WakeDetector(deps.clock, deps.wakeCheckMs ?? WAKE_CHECK_MS, WAKE_SLACK_MS);
  }

  status(): SupervisorStatus {
    return { ...this.current };
  }

  subscribe(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The current link's open sockets (0 when there is none): for tests and diagnostics. */
  socketCount(): number {
    return this.link?.socketCount() ?? 0;
  }

  /** Opens the tunnel, replacing any current one (new host or subdomain). Resolves once the first attempt started. */
  async expose(target: SupervisorTarget): Promise<void> {
    const gen = ++this.gen;
    await this.teardown();
    if (gen !== this.gen) return;
    this.target = target;
    this.asking = target.subdomain;
    this.failures = 0;
    this.heldWanted = false;
    this.reclaimTries = 0;
    this.update({
      state: 'connecting',
      url: null,
      lastError: null,
      attempts: 0,
      host: target.host,
      subdomain: target.subdomain,
      checkedAt: null,
      roundTripMs: null,
    });
    this.startAttempt(gen);
  }

  /** Closes the tunnel and everything it holds (sockets, timers, requests). */
  async close(): Promise<void> {
    const gen = ++this.gen;
    await this.teardown();
    if (gen !== this.gen) return;
    this.target = null;
    this.update({ state: 'disabled', url: null, lastError: null, attempts: 0, checkedAt: null, roundTripMs: null });
  }

  private startAttempt(gen: number): void {
    this.inFlight = this.attempt(gen).catch(this.deps.onError);
  }

  private async attempt(gen: number): Promise<void> {
    const target = this.target!;
    const want = this.asking ?? target.subdomain;
    const { timings } = this.deps;
    this.update({
      state: 'connecting',
      url: null,
      attempts: this.current.attempts + 1,
      subdomain: want,
      retryAt: null,
    });
    const ac = new AbortController();
    this.attemptAbort = ac;
    const timer = setTimeout(
      () => ac.abort(new Error(`The tunnel did not open within ${timings.openTimeoutMs} ms.`)),
      timings.openTimeoutMs,
    );
    let link: TunnelLink | null = null;
    try {
      link = await this.deps.provider.expose(
        {
          host: target.host,
          subdomain: want,
          localPort: target.localPort,
        },
        ac.signal,
      );
      let notice: string | null = null;
      if (link.subdomain !== want) {
        if (want === target.subdomain && (this.heldWanted || target.remembered) && this.reclaimTries < RECLAIM_TRIES) {
          // Our previous connection may still hold the name for the server's grace period.
          this.reclaimTries++;
          throw new StillHeldError(
            `The subdomain "${want}" is still held on ${target.host}, probably by this install's previous connection; retrying.`,
          );
        }
        notice = `The subdomain "${want}" is taken on ${target.host} (another client holds it); using "${link.subdomain}" instead.`;
      }
      link.onDrop((reason) => ac.abort(new Error(reason)));
      const roundTripMs = timings.probeIntervalMs > 0 ? await this.firstProbe(link, ac.signal) : null;
      if (gen !== this.gen) return;
      const online = link;
      link = null; // owned by the supervisor from here
      this.link = online;
      this.failures = 0;
      this.probeMisses = 0;
      if (online.subdomain === target.subdomain) {
        this.heldWanted = true;
        this.reclaimTries = 0;
      }
      online.onDrop((reason) => this.lost(gen, online, reason));
      this.onlineNotice = notice;
      this.update({
        state: 'online',
        url: online.url,
        subdomain: online.subdomain,
        lastError: notice,
        checkedAt: roundTripMs === null ? null : this.deps.clock.now(),
        roundTripMs,
      });
      this.scheduleProbe(gen, online, timings.probeIntervalMs);
      // After a sleep the server has usually dropped our sockets without our knowing: check at once.
      this.wake.start(() => {
        if (gen === this.gen && this.link === online && !this.probeAbort) this.scheduleProbe(gen, online, 0);
      });
    } catch (e) {
      if (link) await link.close();
      link = null;
      if (gen !== this.gen) return;
      let message = e instanceof Error ? e.message : String(e);
      let state: TunnelState = 'offline';
      if (e instanceof TunnelRefusedError) {
        state = 'error';
        if (want === target.subdomain && e.status >= 400 && e.status < 500) {
          // The wanted name is refused (taken, reserved, invalid there): fall back to a fresh one.
          this.asking = randomSubdomain(this.deps.random);
          message += ` Asking for a new random subdomain ("${this.asking}") next.`;
        }
      }
      this.fail(gen, state, message, e instanceof StillHeldError ? RECLAIM_WAIT_MS : 0);
    } finally {
      clearTimeout(timer);
      if (this.attemptAbort === ac) this.attemptAbort = null;
      if (link) await link.close();
    }
  }

  /** The first probe is retried until it passes or the opening's time limit aborts it; resolves to its round trip in ms. */
  private async firstProbe(link: TunnelLink, signal: AbortSignal): Promise<number> {
    const { timings, probeOrigin, clock } = this.deps;
    for (;;) {
      const started = clock.now();
      try {
        await probePublicUrl(link.url, { timeoutMs: timings.probeTimeoutMs, probeOrigin, signal });
        return clock.now() - started;
      } catch (e) {
        if (signal.aborted) {
          const reason = signal.reason instanceof Error ? signal.reason.message : 'cancelled';
          throw new Error(`${reason} Last probe: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
        }
      }
      // An abort ends the wait early (the promise rejects then): the next probe runs
      // on the aborted signal, fails at once and is reported just above.
      await delay(200, undefined, { signal }).catch(() => undefined);
    }
  }

  /** The next round trip through the public URL, after `delayMs` (replacing one already scheduled). */
  private scheduleProbe(gen: number, link: TunnelLink, delayMs: number): void {
    if (this.deps.timings.probeIntervalMs <= 0) return;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      this.probe(gen, link).catch(this.deps.onError);
    }, delayMs);
  }

  /**
   * One round trip, as a sender would make it. A failure makes the tunnel
   * `degraded` (with the reason) and is checked again soon; `probeFailures`
   * failures in a row count as a drop. A success after a failure is `online` again.
   */
  private async probe(gen: number, link: TunnelLink): Promise<void> {
    const { timings, probeOrigin, clock } = this.deps;
    const ac = new AbortController();
    this.probeAbort = ac;
    const started = clock.now();
    let failure: string | null = null;
    try {
      await probePublicUrl(link.url, { timeoutMs: timings.probeTimeoutMs, probeOrigin, signal: ac.signal });
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    } finally {
      if (this.probeAbort === ac) this.probeAbort = null;
    }
    if (gen !== this.gen || this.link !== link || ac.signal.aborted) return;
    const at = clock.now();
    if (failure === null) {
      this.probeMisses = 0;
      this.update({ state: 'online', lastError: this.onlineNotice, checkedAt: at, roundTripMs: at - started });
      this.scheduleProbe(gen, link, timings.probeIntervalMs);
    } else if (++this.probeMisses >= timings.probeFailures) {
      this.lost(gen, link, failure);
    } else {
      this.update({ state: 'degraded', lastError: failure, checkedAt: at, roundTripMs: null });
      this.scheduleProbe(gen, link, Math.min(timings.probeIntervalMs, RECHECK_MS));
    }
  }

  /** The link dropped while online: close it, say so, and reconnect after the backoff. */
  private lost(gen: number, link: TunnelLink, reason: string): void {
    if (gen !== this.gen || this.link !== link) return;
    this.link = null;
    this.clearTimers();
    this.update({
      state: 'offline',
      url: null,
      lastError: reason,
      attempts: 0,
      subdomain: this.target?.subdomain ?? null,
    });
    this.asking = this.target?.subdomain ?? null;
    this.inFlight = link
      .close()
      .then(() => {
        if (gen === this.gen) this.fail(gen, 'offline', reason);
      })
      .catch(this.deps.onError);
  }

  private fail(gen: number, state: TunnelState, message: string, minDelayMs = 0): void {
    this.failures++;
    const { backoffMinMs, backoffMaxMs } = this.deps.timings;
    const delay = Math.max(
      minDelayMs,
      backoffDelay(this.failures, { minMs: backoffMinMs, maxMs: backoffMaxMs }, this.deps.random),
    );
    this.update({ state, url: null, lastError: message, retryAt: this.deps.clock.now() + delay });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (gen === this.gen) this.startAttempt(gen);
    }, delay);
  }

  private clearTimers(): void {
    this.wake.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.retryTimer = this.probeTimer = null;
    this.probeAbort?.abort(new Error('cancelled'));
    this.probeAbort = null;
  }

  /** Stops whatever runs: timers, the attempt in flight, the probe, the link; waits until they are gone. */
  private async teardown(): Promise<void> {
    this.clearTimers();
    this.attemptAbort?.abort(new Error('cancelled'));
    const link = this.link;
    this.link = null;
    await Promise.all([link?.close(), this.inFlight]);
  }

  private update(patch: Partial<SupervisorStatus>): void {
    const next = { ...this.current, ...patch };
    // A round trip's time alone is not news: GET /api/tunnel shows it, but listeners
    // (live events to every account, the engine log) hear only of changes of state.
    const same = (Object.keys(next) as (keyof SupervisorStatus)[]).every(
      (k) => k === 'checkedAt' || k === 'roundTripMs' || next[k] === this.current[k],
    );
    this.current = { ...next, since: next.state !== this.current.state ? this.deps.clock.now() : next.since };
    if (same) return;
    for (const l of [...this.listeners]) {
      try {
        l(this.status());
      } catch (e) {
        this.deps.onError(e);
      }
    }
  }
}
