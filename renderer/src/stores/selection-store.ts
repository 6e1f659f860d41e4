import { createStore } from 'zustand/vanilla';
import type { ApiClient, LogDetail } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export interface SelectionState {
  /** The delivery open in the detail pane (its address ends in `/logs/<id>`: lib/view-route.ts). */
  selectedId: string | null;
  /** Its detail once read (null while on its way, or when the engine refused). */
  detail: LogDetail | null;
  /** "Follow newest": a delivery that arrives is scrolled to and opened (lib/follow-newest.ts). */
  following: boolean;
  /** The open delivery was opened by "Follow newest", not by the user: a large body then opens folded (body-view.tsx). */
  openedByFollowing: boolean;
  setFollowing(on: boolean): void;
  /** Opens a delivery. The user's own choice (the default) stops "Follow newest"; following passes `byFollowing`. */
  select(id: string | null, byFollowing?: boolean): Promise<void>;
  /** A `log.updated` event: refreshes the open detail if it is that log. */
  updated(logId: string): Promise<void>;
  /** A pin or unpin the engine saved: the open detail says so too. */
  pinned(logId: string, pinned: boolean): void;
  /**
   * A `log.updated` event with change `explainable`: the engine's new value for the
   * open detail (Explain offered or not), without reading the detail again.
   */
  explainable(logId: string, explainable: boolean): void;
  /** Deliveries deleted (a `log.deleted` event, this page's deletions included): the open one closes. */
  deleted(logIds: string[]): void;
}

/**
 * The delivery the user (or "Follow newest") opened, and its detail. Following lives
 * here rather than with the list: it is a rule about what is open, and the list
 * store tells this one about pins and deletions, never the other way round.
 */
export const createSelectionStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<SelectionState>()((set, get) => {
    const fetchDetail = async (id: string): Promise<void> => {
      try {
        const detail = await client.get('/api/webhooks/logs/{logId}', { params: { path: { logId: id } } });
        if (get().selectedId === id) set({ detail });
      } catch (e) {
        notices.error('Opening the delivery', e);
      }
    };
    return {
      selectedId: null,
      detail: null,
      following: true,
      openedByFollowing: false,
      setFollowing: (following) => set({ following }),
      select: async (id, byFollowing = false) => {
        set(
          byFollowing
            ? { selectedId: id, detail: null, openedByFollowing: true }
            : { selectedId: id, detail: null, following: false, openedByFollowing: false },
        );
        if (id !== null) await fetchDetail(id);
      },
      updated: async (logId) => {
        if (get().selectedId === logId) await fetchDetail(logId);
      },
      pinned: (logId, pinned) => set((s) => (s.detail?.id === logId ? { detail: { ...s.detail, pinned } } : s)),
      explainable: (logId, explainable) =>
        set((s) => (s.detail?.id === logId ? { detail: { ...s.detail, explainable } } : s)),
      deleted: (logIds) => {
        const open = get().selectedId;
        if (open !== null && logIds.includes(open)) set({ selectedId: null, detail: null });
      },
    };
  });
