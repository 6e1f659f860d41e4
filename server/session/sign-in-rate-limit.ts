import { TooManyRequestsError } from '../errors/app-errors.ts';
import type { Clock } from '../support/clock.ts';

const WINDOW_MS = 60_000;
/** Above this many tracked sources, finished windows are dropped before a new one starts. */
const PRUNE_ABOVE = 1024;

interface Window {
  start: number;
  count: number;
}

/**
 * Sign-in attempts per source address, in fixed one-minute windows: redeeming a
 * code and minting a sign-in link over HTTP. A fixed window rather than a bucket:
 * it is the simplest count a person can predict ("20 a minute"), and a burst at a
 * window's edge (twice the limit) still leaves a 256-bit code out of reach.
 * In memory, per engine: a restart or another instance starts its own count.
 */
export class SignInRateLimit {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    /** Attempts per minute per source; 0 turns the limit off. */
    private readonly perMinute: number,
  ) {}

  /** Counts one attempt from `source`; beyond the limit, 429 with the seconds until its window ends. */
  take(source: string): void {
    if (this.perMinute <= 0) return;
    const now = this.clock.now();
    let w = this.windows.get(source);
    if (!w || now - w.start >= WINDOW_MS || now < w.start) {
      if (this.windows.size > PRUNE_ABOVE) this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(source, w);
    }
    if (w.count >= this.perMinute) {
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
      throw new TooManyRequestsError(
        `Too many sign-in attempts from ${source}: at most ${this.perMinute} a minute. Try again in ${retryAfterSeconds} s.`,
        retryAfterSeconds,
        'SIGN_IN_RATE_LIMITED',
      );
    }
    w.count += 1;
  }

  private prune(now: number): void {
    for (const [source, w] of this.windows)
      if (now - w.start >= WINDOW_MS || now < w.start) this.windows.delete(source);
  }
}
