import { createStore } from 'zustand/vanilla';

export type ThemeChoice = 'light' | 'dark' | 'system';
const KEY = 'hookscope.theme';

export interface ThemeState {
  choice: ThemeChoice;
  choose(choice: ThemeChoice): void;
}

/** A display preference only (never a credential), kept in localStorage. */
export const createThemeStore = (storage: Pick<Storage, 'getItem' | 'setItem'>) => {
  const saved = storage.getItem(KEY);
  const initial: ThemeChoice = saved === 'light' || saved === 'dark' ? saved : 'system';
  return createStore<ThemeState>()((set) => ({
    choice: initial,
    choose: (choice) => {
      storage.setItem(KEY, choice);
      set({ choice });
    },
  }));
};
