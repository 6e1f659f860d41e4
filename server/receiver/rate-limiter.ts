import type { Clock } from '../support/clock.ts';

export interface RateLimit {
  /** Tokens added per second; 0 turns the limiter off. */
  perSecond: number;
  /** Bucket size: how many deliveries may arrive at once after a quiet spell. */
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per endpoint. Written here rather than taken from a package
 * because it runs on every delivery before the body is read, must take the
 * injected clock (so refill is tested exactly), and is a dozen lines; the
 * general-purpose limiters on npm count fixed windows on the wall clock.
 * Only endpoints that exist get a bucket (the receiver asks after its lookup),
 * so the map is bounded by the number of endpoints; `forget` drops a deleted one.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    /**
     * Read at each delivery: Settings may change the limit while the engine runs.
     * A lower burst caps every bucket at its next take; a higher one fills them over time.
     */
    private readonly limit: () => RateLimit,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.limit().perSecond > 0;
  }

  /** The limit in words, for the 429's message. */
  describe(): string {
    const { perSecond, burst } = this.limit();
    return `${perSecond} deliveries per second (bursts of ${burst})`;
  }

  take(key: string): RateDecision {
    const { perSecond, burst } = this.limit();
    if (perSecond <= 0) return { allowed: true };
    const now = this.clock.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: now };
    // A clock that steps back never adds tokens.
    const elapsed = Math.max(0, now - b.at);
    b.tokens = Math.min(burst, b.tokens + (elapsed * perSecond) / 1000);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { allowed: true };
    }
    // Rates are whole tokens per second, so one token is always back within a second.
    return { allowed: false, retryAfterSeconds: 1 };
  }

  forget(key: string): void {
    this.buckets.delete(key);
  }
}
