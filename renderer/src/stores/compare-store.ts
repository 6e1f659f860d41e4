import { createStore } from 'zustand/vanilla';
import type { ApiClient, ApiSchemas } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export type Comparison = ApiSchemas['LogComparison'];

export interface CompareState {
  busy: boolean;
  comparison: Comparison | null;
  /** b compared with a: the older of two selected deliveries is a. */
  compare(a: string, b: string): Promise<void>;
  close(): void;
}

export const createCompareStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<CompareState>()((set) => ({
    busy: false,
    comparison: null,
    compare: async (a, b) => {
      set({ busy: true });
      try {
        set({ comparison: await client.get('/api/webhooks/compare', { params: { query: { a, b } } }) });
      } catch (e) {
        notices.error('Compare', e);
      } finally {
        set({ busy: false });
      }
    },
    close: () => set({ comparison: null }),
  }));
