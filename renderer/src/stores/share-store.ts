import { createStore } from 'zustand/vanilla';
import type { ApiClient, ApiSchemas } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export type Share = ApiSchemas['Share'];

export interface ShareState {
  logId: string | null;
  busy: boolean;
  /** The link made in this panel (the engine keeps only its hash: it cannot be shown again later). */
  share: Share | null;
  open(logId: string): void;
  create(logId: string, expiresInHours: number, redact: boolean, redactPath: boolean): Promise<void>;
  revoke(logId: string): Promise<void>;
}

export const createShareStore = (client: ApiClient, notices: Pick<NoticesState, 'error' | 'info'>) =>
  createStore<ShareState>()((set, get) => ({
    logId: null,
    busy: false,
    share: null,
    open: (logId) => {
      if (get().logId !== logId) set({ logId, share: null });
    },
    create: async (logId, expiresInHours, redact, redactPath) => {
      set({ busy: true });
      try {
        const share = await client.post('/api/webhooks/{logId}/share', {
          params: { path: { logId } },
          body: { expiresInHours, redact, redactPath },
        });
        if (get().logId === logId) set({ share });
      } catch (e) {
        notices.error('Creating the share link', e);
      } finally {
        set({ busy: false });
      }
    },
    revoke: async (logId) => {
      set({ busy: true });
      try {
        await client.delete('/api/webhooks/{logId}/share', { params: { path: { logId } } });
        if (get().logId === logId) set({ share: null });
        notices.info('The share link was revoked: it now answers 404.');
      } catch (e) {
        notices.error('Revoking the share link', e);
      } finally {
        set({ busy: false });
      }
    },
  }));
