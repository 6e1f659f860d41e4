import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.ts';
import type { Refusals } from '../lib/refusal-lines.ts';
import type { NoticesState } from './notices-store.ts';
import { realTimers, type StoreTimers } from './store-timers.ts';

/**
 * The page's clock and the engine's may differ by a little (a team server): the counts
 * are read again this long after the engine's minute ends, and never sooner than this.
 */
export const REREAD_SLACK_MS = 1000;

export interface RefusalsState {
  /**
   * The account's refusals of the last minute, for every endpoint (each endpoint's share
   * is in `endpoints`, so choosing another endpoint needs no request); null until read.
   */
  counts: Refusals | null;
  /** Reads the counts now: on every (re)connection, since events missed while away are not replayed for refusals. */
  load(): Promise<void>;
  /** A `refusals.counted` event: the same answer, pushed after refusals were counted. */
  counted(counts: Refusals): void;
}

/**
 * The refusals counter over the deliveries list (GET /api/observability/refusals and the
 * `refusals.counted` event). Counts fall when the oldest minute leaves the window, and
 * no event says so (docs/API.md "Refusals"): while any is shown, they are read again
 * when the engine's current minute ends.
 */
export const createRefusalsStore = (
  client: ApiClient,
  notices: Pick<NoticesState, 'error'>,
  timers: StoreTimers = realTimers,
  /** Whether the engine is stopped (the live store's verdict): then the timed re-read is skipped; reconnecting reads. */
  engineStopped: () => boolean = () => false,
) =>
  createStore<RefusalsState>()((set) => {
    // Answers older than the latest request or event are dropped.
    let seq = 0;
    let reread: unknown = null;
    const show = (counts: Refusals): void => {
      if (reread !== null) timers.clearTimeout(reread);
      reread = null;
      set({ counts });
      if (counts.total === 0) return;
      const wait = Math.max(REREAD_SLACK_MS, Date.parse(counts.to) - timers.now() + REREAD_SLACK_MS);
      reread = timers.setTimeout(() => {
        reread = null;
        if (!engineStopped()) void read(false);
      }, wait);
    };
    const read = async (sayFailure: boolean): Promise<void> => {
      const mine = ++seq;
      try {
        const counts = await client.get('/api/observability/refusals', { params: { query: { window: '1m' } } });
        if (mine === seq) show(counts);
      } catch (e) {
        // The timed re-read is the page's own idea: its failure keeps the counts and says nothing.
        if (sayFailure) notices.error('Reading the refused deliveries', e);
      }
    };
    return {
      counts: null,
      load: () => read(true),
      counted: (counts) => {
        seq++;
        show(counts);
      },
    };
  });
