import type { Random } from './random.ts';
import { randomFraction } from './random-fraction.ts';

export interface BackoffBounds {
  /** The first failure's step. */
  minMs: number;
  /** The step never grows beyond this. */
  maxMs: number;
}

/**
 * Delay before the retry that follows the `failures`-th consecutive failure
 * (1 = after the first): the step min * 2^(failures-1), capped at max, then
 * "equal jitter", between half and all of the step. The random half spreads
 * many clients that failed together (queues after the same outage, engines after
 * the same server restart) so they do not retry in lockstep; the fixed half
 * keeps a retry from coming back at once.
 */
export function backoffDelay(failures: number, bounds: BackoffBounds, random: Random): number {
  // The exponent is clamped so a long outage cannot overflow the step to Infinity.
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const half = Math.min(bounds.maxMs, bounds.minMs * 2 ** exponent) / 2;
  return Math.round(half + half * randomFraction(random));
}
