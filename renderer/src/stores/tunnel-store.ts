import { createStore } from 'zustand/vanilla';
import type { ApiClient, TunnelStatus } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export interface TunnelState {
  status: TunnelStatus | null;
  load(): Promise<void>;
  /** A `tunnel.status` event. */
  changed(status: TunnelStatus): void;
  setEnabled(enabled: boolean): Promise<void>;
}

export const createTunnelStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<TunnelState>()((set) => ({
    status: null,
    load: async () => {
      try {
        set({ status: await client.get('/api/tunnel') });
      } catch (e) {
        notices.error('Reading the tunnel state', e);
      }
    },
    changed: (status) => set({ status }),
    setEnabled: async (enabled) => {
      try {
        set({ status: await client.post('/api/tunnel', { body: { enabled } }) });
      } catch (e) {
        notices.error(enabled ? 'Turning the tunnel on' : 'Turning the tunnel off', e);
      }
    },
  }));
