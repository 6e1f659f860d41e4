import { createStore } from 'zustand/vanilla';
import { ApiError } from '../api/client.ts';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  /** The words a user reads: the engine's message, with its code for errors. */
  text: string;
}

export interface NoticesState {
  notices: Notice[];
  nextId: number;
  info(text: string): void;
  /** Every failed action ends here, in words, never swallowed. */
  error(what: string, err: unknown): void;
  dismiss(id: number): void;
}

/** "Create endpoint failed: webhookSecret is required for stripe endpoints. (VALIDATION_ERROR)" */
export function describeError(what: string, err: unknown): string {
  if (err instanceof ApiError) return `${what} failed: ${err.message} (${err.code})`;
  return `${what} failed: ${err instanceof Error ? err.message : String(err)}`;
}

export const createNoticesStore = () =>
  createStore<NoticesState>()((set) => ({
    notices: [],
    nextId: 1,
    info: (text) =>
      set((s) => ({ notices: [...s.notices, { id: s.nextId, kind: 'info', text }], nextId: s.nextId + 1 })),
    error: (what, err) =>
      set((s) => ({
        notices: [...s.notices, { id: s.nextId, kind: 'error', text: describeError(what, err) }],
        nextId: s.nextId + 1,
      })),
    dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  }));
