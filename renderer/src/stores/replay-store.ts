import { createStore } from 'zustand/vanilla';
import type { ApiClient, ApiSchemas, RequestBody } from '../api/client.ts';
import { DEFAULT_TARGET_BASE } from '../lib/replay-target.ts';
import type { NoticesState } from './notices-store.ts';

export type ReplayResult = ApiSchemas['ReplayDetail'];
export type ReplayRequest = RequestBody<'/api/replay/{webhookLogId}', 'post'>;
type HistoryEntry = ApiSchemas['ReplayHistoryEntry'];

const targetKey = (endpointId: string): string => `hookscope.replayTarget.${endpointId}`;

export interface ReplayState {
  /** The log the panel is about; results and history belong to it. */
  logId: string | null;
  sending: boolean;
  result: ReplayResult | null;
  history: HistoryEntry[];
  /** The target base remembered for an endpoint (a preference, not a credential: localStorage). */
  targetBase(endpointId: string): string;
  open(logId: string): Promise<void>;
  send(logId: string, endpointId: string, base: string, request: ReplayRequest): Promise<void>;
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
      targetBase: (endpointId) => storage.getItem(targetKey(endpointId)) ?? DEFAULT_TARGET_BASE,
      open: async (logId) => {
        if (get().logId !== logId) set({ logId, result: null, history: [] });
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
    };
  });
