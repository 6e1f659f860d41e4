import type { StoreTimers } from './store-timers.ts';

/** For store tests: a clock and timers the test moves by hand, so no test waits on the wall clock. */
export function manualTimers(start = 1_000_000) {
  let now = start;
  const due: { at: number; run: () => void; id: number }[] = [];
  let nextId = 1;
  const timers: StoreTimers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = nextId++;
      due.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout: (id) => {
      const i = due.findIndex((d) => d.id === id);
      if (i >= 0) due.splice(i, 1);
    },
  };
  return {
    timers,
    /** How long until each pending timer runs, in the order they were set. */
    pending: () => due.map((d) => d.at - now),
    /** Moves the clock on and runs every timer that is then due. */
    advance(ms: number) {
      now += ms;
      for (const d of due.filter((x) => x.at <= now)) {
        due.splice(due.indexOf(d), 1);
        d.run();
      }
    },
  };
}
