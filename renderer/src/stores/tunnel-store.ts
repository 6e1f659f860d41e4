import { createStore } from 'zustand/vanilla';
import type { ApiClient, TunnelStatus } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export interface TunnelState {
  status: TunnelStatus | null;
  load(): Promise<void>;
  /**
   * Reads the status again without a word on failure: `checkedAt` changes with every
   * round trip (every 30 s) and is not pushed, so an open page asks; an engine that
   * does not answer is already said by the live connection's state.
   */
  refresh(): Promise<void>;
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
    refresh: async () => {
      try {
        set({ status: await client.get('/api/tunnel') });
      } catch {
        // Said once, by the live connection (see above); the status shown stays the last known.
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
