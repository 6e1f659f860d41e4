import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.ts';
import { saveErrors, type SaveErrors, type Settings } from '../lib/settings-fields.ts';
import type { NoticesState } from './notices-store.ts';

export interface SettingsState {
  settings: Settings | null;
  loading: boolean;
  saving: boolean;
  /**
   * The last save's outcome, shown next to the Save button (and its errors next to their fields);
   * a failure also goes to the notices, like every failed action.
   */
  outcome: { kind: 'saved' } | { kind: 'failed'; errors: SaveErrors } | null;
  load(): Promise<void>;
  /**
   * Saves what changed. The body is what the user typed, checked by the engine
   * (the form does not repeat its rules), hence the loose type. True when saved.
   */
  save(patch: Record<string, unknown>): Promise<boolean>;
  /** A `settings.changed` event (another window or the CLI saved): read them again if they are shown. */
  changed(): void;
  /** The user edits again: the last outcome no longer describes the form. */
  clearOutcome(): void;
}

export const createSettingsStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<SettingsState>()((set, get) => ({
    settings: null,
    loading: false,
    saving: false,
    outcome: null,
    load: async () => {
      set({ loading: true });
      try {
        set({ settings: await client.get('/api/settings'), loading: false });
      } catch (e) {
        set({ loading: false });
        notices.error('Loading the settings', e);
      }
    },
    save: async (patch) => {
      set({ saving: true, outcome: null });
      try {
        const settings = await client.patch('/api/settings', { body: patch });
        set({ settings, saving: false, outcome: { kind: 'saved' } });
        return true;
      } catch (e) {
        set({ saving: false, outcome: { kind: 'failed', errors: saveErrors(e) } });
        notices.error('Saving the settings', e);
        return false;
      }
    },
    changed: () => {
      if (get().settings !== null) void get().load();
    },
    clearOutcome: () => set({ outcome: null }),
  }));
