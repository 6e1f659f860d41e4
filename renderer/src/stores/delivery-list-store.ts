import { createStore } from 'zustand/vanilla';
import type { ApiClient, ExportFormat, LogSummary } from '../api/client.ts';
import { ALL_DELIVERIES, listQuery, matchesFilter, type DeliveryFilter } from '../lib/delivery-filter.ts';
import { appendPage, MAX_ROWS, newAtTop, prependHead } from '../lib/delivery-pages.ts';
import type { NoticesState } from './notices-store.ts';
import type { SelectionState } from './selection-store.ts';

/** The engine's largest page (GET /api/webhooks/logs takes at most 200). */
export const PAGE = 200;

export interface DeliveryListState {
  logs: LogSummary[];
  /** How many deliveries match the filter in the engine (the list may hold fewer: see `hasMore`). */
  total: number;
  /** The engine has rows below the last one loaded. */
  hasMore: boolean;
  filter: DeliveryFilter;
  loading: boolean;
  /** A next page is on its way. */
  loadingMore: boolean;
  /** The last next page failed (said in a notice); it is not asked again until `loadMore(true)`. */
  moreFailed: boolean;
  /** Counts deliveries added at the top of the list since it was made (live, or found by a reload). */
  arrivals: number;
  /** Rows ticked for Compare, Delete or Export, in the order they were ticked. */
  checked: string[];
  /** Ticks or unticks a row; with `range`, every row between the last ticked one and this one. */
  toggleChecked(id: string, range?: boolean): void;
  clearChecked(): void;
  /** Reloads the list's first page for the current filter (also after a reconnect: the backfill). */
  load(): Promise<void>;
  /**
   * Loads the next page below the rows loaded (the list scrolled near its end). Does
   * nothing while a page is on its way, when nothing is left, or after a failure
   * unless `retry`.
   */
  loadMore(retry?: boolean): Promise<void>;
  setFilter(patch: Partial<DeliveryFilter>): Promise<void>;
  /** A `log.created` event: shown at once when it matches, else the list is asked again. */
  received(log: LogSummary): void;
  /** Pins or unpins a delivery (a pinned one is never evicted by retention). */
  pin(logId: string, pinned: boolean): Promise<void>;
  /** Deletes deliveries for good (one, or many selected); their links, analyses and replays go too. */
  remove(logIds: string[]): Promise<void>;
  /** A `log.deleted` event (this page's deletions included): the rows go (the selection store closes its own). */
  deleted(logIds: string[]): void;
  /** The delivery as a file's text (cURL, raw HTTP, JSON, HAR); null when the engine refused (said in words). */
  exportText(logId: string, format: ExportFormat): Promise<string | null>;
}

/**
 * The deliveries list: its rows for the filter, page by page, live arrivals and the
 * rows ticked. Pins and deletions also concern the open delivery: `selection` hears of them.
 */
export const createDeliveryListStore = (
  client: ApiClient,
  notices: Pick<NoticesState, 'error'>,
  selection: Pick<SelectionState, 'pinned' | 'deleted'>,
) =>
  createStore<DeliveryListState>()((set, get) => {
    // Answers for an older filter are dropped: only the latest request may write the list.
    let requestSeq = 0;
    // The filter the rows shown were read with: a reload for the same one may find new deliveries on top.
    let shownFilter: DeliveryFilter | null = null;
    // Live deliveries shown while a reload is on its way (oldest first). The engine may have
    // answered the reload's query before storing them, so its answer alone would drop them.
    let liveDuringLoad: LogSummary[] = [];
    // Beyond MAX_ROWS the oldest rows loaded go; scrolling down asks for them again.
    const capped = (
      logs: LogSummary[],
    ): Pick<DeliveryListState, 'logs'> | Pick<DeliveryListState, 'logs' | 'hasMore'> =>
      logs.length > MAX_ROWS ? { logs: logs.slice(0, MAX_ROWS), hasMore: true } : { logs };
    // A live delivery under a search: only the engine knows whether it matches (it alone sees
    // bodies), so its first page is asked again and merged on top, keeping the rows loaded below.
    // One request at a time: deliveries arriving meanwhile are covered by one more after it.
    let headInFlight = false;
    let headAgain = false;
    const refreshHead = async (): Promise<void> => {
      if (headInFlight) {
        headAgain = true;
        return;
      }
      headInFlight = true;
      try {
        do {
          headAgain = false;
          await refreshHeadOnce();
        } while (headAgain);
      } finally {
        headInFlight = false;
      }
    };
    const refreshHeadOnce = async (): Promise<void> => {
      const seq = requestSeq;
      try {
        const page = await client.get('/api/webhooks/logs', { params: { query: listQuery(get().filter, PAGE) } });
        if (seq !== requestSeq) return;
        set((s) => {
          const { logs, added } = prependHead(s.logs, page.logs);
          return { ...capped(logs), total: page.total, arrivals: s.arrivals + added };
        });
      } catch (e) {
        notices.error('Loading deliveries', e);
      }
    };
    return {
      logs: [],
      total: 0,
      hasMore: false,
      filter: ALL_DELIVERIES,
      loading: false,
      loadingMore: false,
      moreFailed: false,
      arrivals: 0,
      checked: [],
      toggleChecked: (id, range = false) =>
        set((s) => {
          const last = s.checked[s.checked.length - 1];
          if (range && last !== undefined) {
            const i = s.logs.findIndex((l) => l.id === last);
            const j = s.logs.findIndex((l) => l.id === id);
            if (i !== -1 && j !== -1) {
              const span = s.logs.slice(Math.min(i, j), Math.max(i, j) + 1).map((l) => l.id);
              return { checked: [...s.checked.filter((c) => !span.includes(c)), ...span] };
            }
          }
          return { checked: s.checked.includes(id) ? s.checked.filter((c) => c !== id) : [...s.checked, id] };
        }),
      clearChecked: () => set({ checked: [] }),
      load: async () => {
        const seq = ++requestSeq;
        const filter = get().filter;
        // A next page still on its way belongs to the old list: its answer is dropped (requestSeq).
        set({ loading: true, loadingMore: false, moreFailed: false });
        liveDuringLoad = [];
        try {
          const page = await client.get('/api/webhooks/logs', { params: { query: listQuery(filter, PAGE) } });
          if (seq !== requestSeq) return;
          const listed = new Set(page.logs.map((l) => l.id));
          const missed = liveDuringLoad.filter((l) => !listed.has(l.id)).reverse();
          liveDuringLoad = [];
          const arrived = shownFilter === filter ? newAtTop(get().logs, page.logs) : 0;
          shownFilter = filter;
          set((s) => ({
            logs: [...missed, ...page.logs],
            total: page.total + missed.length,
            hasMore: page.hasMore,
            loading: false,
            arrivals: s.arrivals + arrived,
          }));
        } catch (e) {
          if (seq === requestSeq) set({ loading: false });
          notices.error('Loading deliveries', e);
        }
      },
      loadMore: async (retry = false) => {
        const s = get();
        if (s.loading || s.loadingMore || !s.hasMore || (s.moreFailed && !retry)) return;
        const seq = requestSeq;
        set({ loadingMore: true, moreFailed: false });
        try {
          const page = await client.get('/api/webhooks/logs', {
            params: { query: listQuery(s.filter, PAGE, s.logs.length) },
          });
          if (seq !== requestSeq) return;
          set((now) => {
            const logs = appendPage(now.logs, page.logs);
            // Nothing new on a page that said there was more (the rows moved under it): stop rather than loop.
            const stuck = logs.length === now.logs.length && page.logs.length > 0;
            return { logs, total: page.total, hasMore: page.hasMore && !stuck, loadingMore: false };
          });
        } catch (e) {
          if (seq !== requestSeq) return;
          set({ loadingMore: false, moreFailed: true });
          notices.error('Loading more deliveries', e);
        }
      },
      setFilter: async (patch) => {
        set((s) => ({ filter: { ...s.filter, ...patch } }));
        await get().load();
      },
      received: (log) => {
        const match = matchesFilter(log, get().filter);
        if (match === 'unknown') {
          void refreshHead();
          return;
        }
        if (!match) return;
        if (get().loading) liveDuringLoad.push(log);
        set((s) =>
          s.logs.some((l) => l.id === log.id)
            ? s
            : { ...capped([log, ...s.logs]), total: s.total + 1, arrivals: s.arrivals + 1 },
        );
      },
      pin: async (logId, pinned) => {
        try {
          const summary = await client.patch('/api/webhooks/logs/{logId}', {
            params: { path: { logId } },
            body: { pinned },
          });
          set((s) => ({ logs: s.logs.map((l) => (l.id === logId ? summary : l)) }));
          selection.pinned(logId, summary.pinned);
        } catch (e) {
          notices.error(pinned ? 'Pin' : 'Unpin', e);
        }
      },
      remove: async (logIds) => {
        try {
          if (logIds.length === 1) {
            await client.delete('/api/webhooks/logs/{logId}', { params: { path: { logId: logIds[0]! } } });
            get().deleted(logIds);
            selection.deleted(logIds);
          } else {
            const r = await client.post('/api/webhooks/logs/delete', { body: { ids: logIds } });
            get().deleted(r.deletedIds);
            selection.deleted(r.deletedIds);
          }
        } catch (e) {
          notices.error('Delete', e);
        }
      },
      deleted: (logIds) => {
        const gone = new Set(logIds);
        set((s) => {
          const logs = s.logs.filter((l) => !gone.has(l.id));
          return {
            logs,
            checked: s.checked.filter((id) => !gone.has(id)),
            total: Math.max(0, s.total - (s.logs.length - logs.length)),
          };
        });
      },
      exportText: async (logId, format) => {
        try {
          const file = await client.get('/api/webhooks/logs/{logId}/export', {
            params: { path: { logId }, query: { format } },
          });
          return file.content;
        } catch (e) {
          notices.error(`Export as ${format}`, e);
          return null;
        }
      },
    };
  });
