import { createStore } from 'zustand/vanilla';
import type { ApiClient, LogDetail, LogSummary } from '../api/client.ts';
import { ALL_DELIVERIES, listQuery, matchesFilter, type DeliveryFilter } from '../lib/delivery-filter.ts';
import type { NoticesState } from './notices-store.ts';

/** The engine's largest page (GET /api/webhooks/logs takes at most 200). */
export const PAGE = 200;

export interface DeliveriesState {
  logs: LogSummary[];
  total: number;
  filter: DeliveryFilter;
  loading: boolean;
  selectedId: string | null;
  detail: LogDetail | null;
  /** Rows ticked for Compare, Delete or Export, in the order they were ticked. */
  checked: string[];
  /** Ticks or unticks a row; with `range`, every row between the last ticked one and this one. */
  toggleChecked(id: string, range?: boolean): void;
  clearChecked(): void;
  /** Reloads the list for the current filter (also after a reconnect: the backfill). */
  load(): Promise<void>;
  setFilter(patch: Partial<DeliveryFilter>): Promise<void>;
  select(id: string | null): Promise<void>;
  /** A `log.created` event: shown at once when it matches, else the list is asked again. */
  received(log: LogSummary): void;
  /** A `log.updated` event: refreshes the open detail if it is that log. */
  updated(logId: string): Promise<void>;
  /** Pins or unpins a delivery (a pinned one is never evicted by retention). */
  pin(logId: string, pinned: boolean): Promise<void>;
  /** Deletes deliveries for good (one, or many selected); their links, analyses and replays go too. */
  remove(logIds: string[]): Promise<void>;
  /** A `log.deleted` event (this page's deletions included): the rows go. */
  deleted(logIds: string[]): void;
  /** The delivery as a file's text (cURL, raw HTTP, JSON, HAR); null when the engine refused (said in words). */
  exportText(logId: string, format: 'curl' | 'http' | 'json' | 'har'): Promise<string | null>;
}

export const createDeliveriesStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<DeliveriesState>()((set, get) => {
    // Answers for an older filter are dropped: only the latest request may write the list.
    let requestSeq = 0;
    const fetchDetail = async (id: string): Promise<void> => {
      try {
        const detail = await client.get('/api/webhooks/logs/{logId}', { params: { path: { logId: id } } });
        if (get().selectedId === id) set({ detail });
      } catch (e) {
        notices.error('Opening the delivery', e);
      }
    };
    return {
      logs: [],
      total: 0,
      filter: ALL_DELIVERIES,
      loading: false,
      selectedId: null,
      detail: null,
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
        set({ loading: true });
        try {
          const page = await client.get('/api/webhooks/logs', { params: { query: listQuery(get().filter, PAGE) } });
          if (seq === requestSeq) set({ logs: page.logs, total: page.total, loading: false });
        } catch (e) {
          if (seq === requestSeq) set({ loading: false });
          notices.error('Loading deliveries', e);
        }
      },
      setFilter: async (patch) => {
        set((s) => ({ filter: { ...s.filter, ...patch } }));
        await get().load();
      },
      select: async (id) => {
        set({ selectedId: id, detail: null });
        if (id !== null) await fetchDetail(id);
      },
      received: (log) => {
        const match = matchesFilter(log, get().filter);
        if (match === 'unknown') {
          void get().load();
          return;
        }
        if (!match) return;
        set((s) =>
          s.logs.some((l) => l.id === log.id) ? s : { logs: [log, ...s.logs].slice(0, PAGE), total: s.total + 1 },
        );
      },
      updated: async (logId) => {
        if (get().selectedId === logId) await fetchDetail(logId);
      },
      pin: async (logId, pinned) => {
        try {
          const summary = await client.patch('/api/webhooks/logs/{logId}', {
            params: { path: { logId } },
            body: { pinned },
          });
          set((s) => ({
            logs: s.logs.map((l) => (l.id === logId ? summary : l)),
            detail: s.detail?.id === logId ? { ...s.detail, pinned: summary.pinned } : s.detail,
          }));
        } catch (e) {
          notices.error(pinned ? 'Pin' : 'Unpin', e);
        }
      },
      remove: async (logIds) => {
        try {
          if (logIds.length === 1) {
            await client.delete('/api/webhooks/logs/{logId}', { params: { path: { logId: logIds[0]! } } });
            get().deleted(logIds);
          } else {
            const r = await client.post('/api/webhooks/logs/delete', { body: { ids: logIds } });
            get().deleted(r.deletedIds);
          }
        } catch (e) {
          notices.error('Delete', e);
        }
      },
      deleted: (logIds) => {
        const gone = new Set(logIds);
        set((s) => {
          const logs = s.logs.filter((l) => !gone.has(l.id));
          const selectedGone = s.selectedId !== null && gone.has(s.selectedId);
          return {
            logs,
            checked: s.checked.filter((id) => !gone.has(id)),
            total: Math.max(0, s.total - (s.logs.length - logs.length)),
            ...(selectedGone ? { selectedId: null, detail: null } : {}),
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
