import { mock } from './node-test.ts';

/**
 * Runs `fn` with Date pinned to `nowMs`: for providers' libraries that read the
 * time from Date.now() and take no clock (standardwebhooks), so they judge a
 * timestamp at exactly the instant our verifier was given.
 */
export function atPinnedDate<T>(nowMs: number, fn: () => T): T {
  mock.timers.enable({ apis: ['Date'], now: nowMs });
  try {
    return fn();
  } finally {
    mock.timers.reset();
  }
}

/** Whether `verify` accepts, with Date pinned to `nowMs` (a throw is a refusal). */
export function acceptsAt(nowMs: number, verify: () => unknown): boolean {
  return atPinnedDate(nowMs, () => {
    try {
      verify();
      return true;
    } catch {
      return false;
    }
  });
}
