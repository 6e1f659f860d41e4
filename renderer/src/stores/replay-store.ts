import { createStore } from 'zustand/vanilla';
import type { ApiClient, ApiSchemas, RequestBody } from '../api/client.ts';
import type { ApiData } from '../../../server/api-client/api-client.ts';
import { DEFAULT_TARGET_BASE } from '../lib/replay-target.ts';
import type { NoticesState } from './notices-store.ts';

export type ReplayResult = ApiSchemas['ReplayDetail'];
export type ReplayRequest = RequestBody<'/api/replay/{webhookLogId}', 'post'>;
type HistoryEntry = ApiSchemas['ReplayHistoryEntry'];
export type ReplayDiff = ApiData<'/api/replay/{webhookLogId}/diff', 'get'>;

const targetKey = (endpointId: string): string => `hookscope.replayTarget.${endpointId}`;

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
          params: { path: { webhookLogId: logId } },
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
      send: async (logId, endpointId, base, request) => {
        storage.setItem(targetKey(endpointId), base);
        set({ sending: true });
        try {
          const result = await client.post('/api/replay/{webhookLogId}', {
            params: { path: { webhookLogId: logId } },
            body: request,
          });
          if (get().logId === logId) set({ result });
        } catch (e) {
          // No answer from the target is still an attempt: the engine recorded it, the history shows it.
          notices.error('Replay', e);
        } finally {
          set({ sending: false });
          await loadHistory(logId);
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
