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
  /** Reloads the list for the current filter (also after a reconnect: the backfill). */
  load(): Promise<void>;
  setFilter(patch: Partial<DeliveryFilter>): Promise<void>;
  select(id: string | null): Promise<void>;
  /** A `log.created` event: shown at once when it matches, else the list is asked again. */
  received(log: LogSummary): void;
  /** A `log.updated` event: refreshes the open detail if it is that log. */
  updated(logId: string): Promise<void>;
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
    };
  });
