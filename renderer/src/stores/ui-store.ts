import { createStore } from 'zustand/vanilla';

/** The panel open under a delivery's detail; keyboard shortcuts open them too. */
export type Panel = 'none' | 'replay' | 'edit' | 'share' | 'explain';

export interface UiState {
  panel: Panel;
  shortcutsOpen: boolean;
  setPanel(panel: Panel): void;
  setShortcutsOpen(open: boolean): void;
}

export const createUiStore = () =>
  createStore<UiState>()((set) => ({
    panel: 'none',
    shortcutsOpen: false,
    setPanel: (panel) => set({ panel }),
    setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
  }));
