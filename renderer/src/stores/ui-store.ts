import { createStore } from 'zustand/vanilla';

/** The panel open under a delivery's detail; keyboard shortcuts open them too. */
export type Panel = 'none' | 'replay' | 'edit' | 'share' | 'explain';

/**
 * Where the keyboard's focus is to go once that part is drawn: the open panel's
 * first field, or the deliveries list's current row. The part that draws the
 * target takes the request (`focusTaken`), so focus lands after the render that
 * shows it, and a panel drawn again for another delivery does not take focus.
 */
export type FocusRequest = 'panel' | 'list';

export interface UiState {
  panel: Panel;
  shortcutsOpen: boolean;
  focusRequest: FocusRequest | null;
  /** Opening a panel with a form (a button, a key) asks for its first field to take focus. */
  setPanel(panel: Panel): void;
  setShortcutsOpen(open: boolean): void;
  requestFocus(target: FocusRequest): void;
  focusTaken(): void;
}

export const createUiStore = () =>
  createStore<UiState>()((set) => ({
    panel: 'none',
    shortcutsOpen: false,
    focusRequest: null,
    setPanel: (panel) => set({ panel, focusRequest: panel === 'none' || panel === 'explain' ? null : 'panel' }),
    setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
    requestFocus: (focusRequest) => set({ focusRequest }),
    focusTaken: () => set({ focusRequest: null }),
  }));
