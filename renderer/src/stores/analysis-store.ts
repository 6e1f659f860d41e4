import { createStore } from 'zustand/vanilla';
import type { ApiClient, ApiSchemas } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export type Analysis = ApiSchemas['RemediationAnalysis'];

export interface AnalysisState {
  logId: string | null;
  busy: boolean;
  analysis: Analysis | null;
  /** Why a delivery has nothing to explain, or the engine's error, in words. */
  problem: string | null;
  explain(logId: string, refresh?: boolean): Promise<void>;
  close(): void;
}

export const createAnalysisStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<AnalysisState>()((set, get) => ({
    logId: null,
    busy: false,
    analysis: null,
    problem: null,
    explain: async (logId, refresh = false) => {
      set({ logId, busy: true, problem: null, ...(get().logId !== logId ? { analysis: null } : {}) });
      try {
        const analysis = await client.post('/api/webhooks/logs/{logId}/analyze', {
          params: { path: { logId }, query: refresh ? { refresh: 'true' } : {} },
        });
        if (get().logId === logId) set({ analysis });
      } catch (e) {
        if (get().logId === logId) set({ problem: e instanceof Error ? e.message : String(e) });
        notices.error('Explain', e);
      } finally {
        set({ busy: false });
      }
    },
    close: () => set({ logId: null, analysis: null, problem: null }),
  }));
