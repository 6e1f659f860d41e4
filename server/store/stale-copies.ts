import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A function that runs a full garbage collection of the calling thread's heap.
 *
 * Node has no API for this. The flag is turned on only long enough to fetch V8's `gc`
 * from a fresh context, and then off again, so no other context sees a global `gc`.
 * jest's leak detector uses the same technique.
 */
export function fullCollection(): () => void {
  // Started with --expose-gc (some test runners are): use that one and leave the flag alone.
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Frees the store worker's stale copies of the database as soon as they are garbage.
 *
 * sql.js keeps the database file in one ArrayBuffer. Each time the file outgrows it,
 * sql.js replaces it with a copy an eighth larger. A checkpoint's export is one more
 * whole copy, and so is the snapshot read at open. Each old copy is garbage at once,
 * but V8 times its collections by the worker's JavaScript heap, which is a few MB.
 * So copies of 100 MB and more stayed resident for seconds and stacked up: during a
 * checkpoint in a burst, the worker held up to three copies of a 130 MB database
 * (docs/PERFORMANCE.md, issue 12).
 *
 * A full collection of the worker's small heap takes a few milliseconds, and only the
 * worker waits for it.
 */
export class StaleCopies {
  private pagesAtCollection = 0;
  private count = 0;

  /** `pages` is the database's current size in pages. */
  constructor(
    private readonly collect: () => void,
    private readonly pages: () => number,
  ) {}

  /** Collections run so far (the worker reports it; tests count on it). */
  get collections(): number {
    return this.count;
  }

  /** After a whole copy was dropped (a snapshot read or written). */
  collectNow(): void {
    this.collect();
    this.count++;
    this.pagesAtCollection = this.pages();
  }

  /**
   * After writes. A sixteenth is half of sql.js's growth step, so a replaced copy
   * waits for at most about half a step.
   */
  collectIfGrown(): void {
    if (this.pages() * 16 > this.pagesAtCollection * 17) this.collectNow();
  }
}
