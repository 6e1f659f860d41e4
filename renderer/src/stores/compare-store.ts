import { createStore } from 'zustand/vanilla';
import type { ApiClient, ApiSchemas, LogSummary } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export type Comparison = ApiSchemas['LogComparison'];
/**
 * A delivery to compare, as its row has it: the comparison's sides name the
 * endpoint and time but not the verification, which the row knows.
 */
export type ComparedDelivery = Pick<LogSummary, 'id' | 'verification'>;

export interface CompareState {
  busy: boolean;
  comparison: Comparison | null;
  /** The two deliveries compared, as their rows had them. */
  sides: { a: ComparedDelivery; b: ComparedDelivery } | null;
  /** b compared with a: the older of two selected deliveries is a. */
  compare(a: ComparedDelivery, b: ComparedDelivery): Promise<void>;
  close(): void;
}

export const createCompareStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<CompareState>()((set) => ({
    busy: false,
    comparison: null,
    sides: null,
    compare: async (a, b) => {
      set({ busy: true });
      try {
        const comparison = await client.get('/api/webhooks/compare', { params: { query: { a: a.id, b: b.id } } });
        set({ comparison, sides: { a, b } });
      } catch (e) {
        notices.error('Compare', e);
      } finally {
        set({ busy: false });
      }
    },
    close: () => set({ comparison: null, sides: null }),
  }));
