import { createStore } from 'zustand/vanilla';
import type { ApiClient, ApiSchemas, RequestBody } from '../api/client.ts';
import type { ApiData } from '../../../server/api-client/api-client.ts';
import { DEFAULT_TARGET_BASE } from '../lib/replay-target.ts';
import type { NoticesState } from './notices-store.ts';

export type ReplayResult = ApiSchemas['ReplayDetail'];
export type ReplayRequest = RequestBody<'/api/replay/{webhookLogId}', 'post'>;
export type HistoryEntry = ApiSchemas['ReplayHistoryEntry'];
export type ReplayDiff = ApiData<'/api/replay/{webhookLogId}/diff', 'get'>;

const targetKey = (endpointId: string): string => `hookscope.replayTarget.${endpointId}`;

/** The newest attempts shown, as many as the engine's first history page holds. */
const HISTORY_SHOWN = 50;

/** A replay's answer as its history entry (what `replay.completed` carries): the exchange itself stays out. */
function entryOf(result: ReplayResult): HistoryEntry {
  const { requestHeaders, responseHeaders, responseRawHeaders, responseBody, bodyEncoding, truncated, ...entry } =
    result;
  return entry;
}

export interface ReplayState {
  /** The log the panel is about; results and history belong to it. */
  logId: string | null;
  sending: boolean;
  result: ReplayResult | null;
  history: HistoryEntry[];
  /** Two of the log's replays compared (b with a), shown under the history. */
  diff: ReplayDiff | null;
  /** The target base remembered for an endpoint (a preference, not a credential: localStorage). */
  targetBase(endpointId: string): string;
  open(logId: string): Promise<void>;
  /** Reads the open history again (after a reconnection: attempts made while away). */
  refresh(): Promise<void>;
  /**
   * An attempt was recorded (a `replay.completed` event, or this page's own replay
   * answered): it goes on top of the open history, once, without asking the engine.
   */
  completed(entry: HistoryEntry): void;
  send(logId: string, endpointId: string, base: string, request: ReplayRequest): Promise<void>;
  /** The engine's diff of two replays of the log: status, headers, body (b compared with a). */
  compare(logId: string, a: string, b: string): Promise<void>;
  closeDiff(): void;
}

export const createReplayStore = (
  client: ApiClient,
  notices: Pick<NoticesState, 'error'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
) =>
  createStore<ReplayState>()((set, get) => {
    const loadHistory = async (logId: string): Promise<void> => {
      try {
        const page = await client.get('/api/replay/{webhookLogId}/history', {
          params: { path: { webhookLogId: logId }, query: { limit: String(HISTORY_SHOWN) } },
        });
        if (get().logId === logId) set({ history: page.history });
      } catch (e) {
        notices.error('Loading the replay history', e);
      }
    };
    return {
      logId: null,
      sending: false,
      result: null,
      history: [],
      diff: null,
      targetBase: (endpointId) => storage.getItem(targetKey(endpointId)) ?? DEFAULT_TARGET_BASE,
      open: async (logId) => {
        if (get().logId !== logId) set({ logId, result: null, history: [], diff: null });
        await loadHistory(logId);
      },
      refresh: async () => {
        const logId = get().logId;
        if (logId !== null) await loadHistory(logId);
      },
      completed: (entry) =>
        set((s) => {
          if (s.logId !== entry.logId || s.history.some((h) => h.id === entry.id)) return s;
          // Newest first, as the engine lists them: an answer and an event may arrive in either order.
          const at = s.history.findIndex((h) => h.createdAt <= entry.createdAt);
          const history = at === -1 ? [...s.history, entry] : s.history.toSpliced(at, 0, entry);
          return { history: history.slice(0, HISTORY_SHOWN) };
        }),
      send: async (logId, endpointId, base, request) => {
        storage.setItem(targetKey(endpointId), base);
        set({ sending: true });
        try {
          const result = await client.post('/api/replay/{webhookLogId}', {
            params: { path: { webhookLogId: logId } },
            body: request,
          });
          if (get().logId === logId) set({ result });
          get().completed(entryOf(result));
        } catch (e) {
          // No answer from the target is still an attempt: the engine recorded it, and its
          // `replay.completed` event puts it in the history.
          notices.error('Replay', e);
        } finally {
          set({ sending: false });
        }
      },
      compare: async (logId, a, b) => {
        try {
          const diff = await client.get('/api/replay/{webhookLogId}/diff', {
            params: { path: { webhookLogId: logId }, query: { a, b } },
          });
          if (get().logId === logId) set({ diff });
        } catch (e) {
          notices.error('Comparing the replays', e);
        }
      },
      closeDiff: () => set({ diff: null }),
    };
  });
