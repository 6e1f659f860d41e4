import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.ts';
import type { DownloadFormat, ExportFile } from '../lib/export-file.ts';
import type { NoticesState } from './notices-store.ts';

export interface ExportState {
  /** The log being exported, if any (its menu shows it is busy). */
  busy: string | null;
  /** The delivery as the engine exports it; null when the engine refused (said in words). */
  file(logId: string, format: DownloadFormat): Promise<ExportFile | null>;
}

const LABELS: Record<DownloadFormat, string> = { json: 'JSON', har: 'HAR', http: 'raw HTTP' };

export const createExportStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<ExportState>()((set) => ({
    busy: null,
    file: async (logId, format) => {
      set({ busy: logId });
      try {
        return await client.get('/api/webhooks/logs/{logId}/export', {
          params: { path: { logId }, query: { format } },
        });
      } catch (e) {
        notices.error(`Export as ${LABELS[format]}`, e);
        return null;
      } finally {
        set({ busy: null });
      }
    },
  }));
