import { SOLE_INSTANCE, type InstanceRegistry } from '../instances/instance-registry.ts';
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
 *
 * Several instances on one database (a team server) each keep a local bucket
 * holding their share of the limit: perSecond / n and burst / n for n live
 * instances. A shared bucket in the database would be exact but costs a round
 * trip on every delivery, refused ones included, which is what a flood is made
 * of; the local share costs nothing and is exact when the load balancer splits
 * evenly. Its error (measured in docs/ARCHITECTURE.md "Rate limit across
 * instances"): an uneven split lets through less than the limit; more only
 * while an instance has started and the others have not yet seen it, or when
 * the burst is below the number of instances (each still holds one token).
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
    /** The live engines the limit is shared between (the embedded store: this one alone). */
    private readonly instances: InstanceRegistry = SOLE_INSTANCE,
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
    const limit = this.limit();
    if (limit.perSecond <= 0) return { allowed: true };
    const n = Math.max(1, this.instances.liveCount());
    const perSecond = limit.perSecond / n;
    // Never under one token: a bucket that cannot hold one would refuse every delivery for good.
    const burst = Math.max(1, limit.burst / n);
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
    // Alone, a whole number of tokens per second brings one back within a second; a share
    // below one token per second (a low limit split between instances) takes longer.
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / perSecond)) };
  }

  forget(key: string): void {
    this.buckets.delete(key);
  }
}
