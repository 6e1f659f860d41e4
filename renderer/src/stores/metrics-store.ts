import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.ts';
import type { MetricsReport, MetricsWindow } from '../lib/metrics-view.ts';
import type { NoticesState } from './notices-store.ts';
import { realTimers, type StoreTimers } from './store-timers.ts';

/** Live events refresh the open metrics at most this often: a burst of deliveries is one request, not one each. */
export const REFRESH_MS = 5000;

export interface MetricsState {
  window: MetricsWindow;
  report: MetricsReport | null;
  loading: boolean;
  /** When the shown report was asked for (ms since the epoch), for "Updated …". */
  loadedAt: number | null;
  /** Whether the metrics screen is open: only then do live events cost a request. */
  open: boolean;
  /** Asks the engine for the current window now (the Refresh button, opening the screen). */
  load(): Promise<void>;
  setWindow(window: MetricsWindow): Promise<void>;
  /** The screen opened (loads) or closed (drops a pending refresh). */
  show(open: boolean): void;
  /**
   * A delivery was stored or a replay finished: while the screen is open, the
   * figures are asked again, at most once per REFRESH_MS (the last change within
   * that time is never lost: a refresh is then scheduled at the interval's end).
   */
  changed(): void;
}

export const createMetricsStore = (
  client: ApiClient,
  notices: Pick<NoticesState, 'error'>,
  timers: StoreTimers = realTimers,
  /** Whether the engine is stopped (the live store's verdict): then nothing is asked and the last report stays. */
  engineStopped: () => boolean = () => false,
) =>
  createStore<MetricsState>()((set, get) => {
    // Answers for an older window are dropped: only the latest request may write the report.
    let requestSeq = 0;
    let lastRequestAt = -Infinity;
    let pending: unknown = null;
    const cancelPending = (): void => {
      if (pending !== null) timers.clearTimeout(pending);
      pending = null;
    };
    return {
      window: '24h',
      report: null,
      loading: false,
      loadedAt: null,
      open: false,
      load: async () => {
        cancelPending();
        // The request could only fail; the last figures stay on screen, marked stale, until the engine is back.
        if (engineStopped()) return;
        const seq = ++requestSeq;
        const askedAt = timers.now();
        lastRequestAt = askedAt;
        set({ loading: true });
        try {
          const report = await client.get('/api/observability/metrics', {
            params: { query: { window: get().window } },
          });
          if (seq === requestSeq) set({ report, loading: false, loadedAt: askedAt });
        } catch (e) {
          if (seq === requestSeq) set({ loading: false });
          notices.error('Loading metrics', e);
        }
      },
      setWindow: async (window) => {
        if (window === get().window) return;
        set({ window });
        await get().load();
      },
      show: (open) => {
        set({ open });
        if (open) void get().load();
        else cancelPending();
      },
      changed: () => {
        if (!get().open || pending !== null) return;
        const wait = Math.max(0, lastRequestAt + REFRESH_MS - timers.now());
        pending = timers.setTimeout(() => {
          pending = null;
          if (get().open) void get().load();
        }, wait);
      },
    };
  });
