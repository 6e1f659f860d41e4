import type { Random } from '../support/random.ts';

/** Timers are injected so the forwarder's retry schedule can be driven by tests. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface BackoffPolicy {
  initialBackoffMs: number;
  maxBackoffMs: number;
}

/**
 * Delay before retry number `failures` (1 = after the first failure): the
 * initial delay doubling per failure up to the cap, then "equal jitter" (half
 * fixed, half random), so many queues that failed together do not retry in
 * lockstep while each still waits at least half its step.
 */
export function backoffDelay(policy: BackoffPolicy, failures: number, random: Random): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const step = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** exponent);
  const fraction = random.bytes(4).readUInt32BE(0) / 0x1_0000_0000;
  return Math.round(step / 2 + fraction * (step / 2));
}
