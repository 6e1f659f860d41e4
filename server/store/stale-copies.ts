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

/** A database file below this size is left to V8's own timing. */
export const SMALL_FILE = 16 * 1024 * 1024;

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
  private bytesAtCollection: readonly number[] = [];
  private count = 0;

  /**
   * `bytes` is each database file's current size (the store's main and aux databases). Each
   * file grows by its own copies, so each is watched on its own: measured against their total,
   * a step of the smaller one (an eighth of 40 MB) left its old copy uncollected until the
   * larger one grew too.
   */
  constructor(
    private readonly collect: () => void,
    private readonly bytes: () => readonly number[],
  ) {}

  /** Collections run so far (the worker reports it; tests count on it). */
  get collections(): number {
    return this.count;
  }

  /** After a whole copy was dropped (a snapshot read or written). */
  collectNow(): void {
    this.collect();
    this.count++;
    this.bytesAtCollection = [...this.bytes()];
  }

  /**
   * After writes: once a file has grown by more than a sixteenth. A sixteenth is half of
   * sql.js's growth step, so a replaced copy waits for at most about half a step. Below
   * SMALL_FILE the copies are small, and collecting at every sixteenth from an empty store
   * would take about 100 collections (some 5 ms each) before the file reached 16 MiB.
   */
  collectIfGrown(): void {
    const grown = this.bytes().some((b, i) => b >= SMALL_FILE && b * 16 > (this.bytesAtCollection[i] ?? 0) * 17);
    if (grown) this.collectNow();
  }
}
