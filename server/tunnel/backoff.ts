import type { Random } from '../support/random.ts';

/**
 * Exponential backoff with "equal jitter": the n-th consecutive failure waits
 * between half and all of min(max, min * 2^(n-1)). The random half spreads many
 * engines reconnecting after the same server restart; the fixed half keeps a
 * retry from coming back at once.
 */
export function backoffDelay(failures: number, minMs: number, maxMs: number, random: Random): number {
  const exp = Math.min(maxMs, minMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
  const half = exp / 2;
  return Math.round(half + half * unitInterval(random));
}

/** A number in [0, 1) from the injected randomness. */
export function unitInterval(random: Random): number {
  return random.bytes(4).readUInt32BE(0) / 2 ** 32;
}
