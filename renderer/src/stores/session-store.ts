import { createStore } from 'zustand/vanilla';
import { ApiError, type ApiClient } from '../api/client.ts';

export type SessionStatus = 'checking' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: SessionStatus;
  account: { id: string; name: string } | null;
  owner: boolean;
  /** Why the user is signed out, in words (an expired link, no session yet). */
  reason: string | null;
  /**
   * Signs in with the code of a sign-in link (`#/sign-in/<code>`), then forgets
   * the link (the caller clears the address bar); else asks who the cookie is.
   */
  start(code: string | null): Promise<void>;
  signOut(): Promise<void>;
}

const NO_SESSION = 'Open Hookscope with `npx hookscope open`: it signs this browser in.';

export const createSessionStore = (client: ApiClient) =>
  createStore<SessionState>()((set) => ({
    status: 'checking',
    account: null,
    owner: false,
    reason: null,
    start: async (code) => {
      try {
        const session = code ? await client.post('/api/session', { body: { code } }) : await client.get('/api/session');
        set({ status: 'signed-in', account: session.account, owner: session.owner, reason: null });
      } catch (e) {
        const reason =
          e instanceof ApiError && e.status === 401
            ? code
              ? e.message
              : NO_SESSION
            : `The engine did not answer: ${String(e)}`;
        set({ status: 'signed-out', account: null, owner: false, reason });
      }
    },
    signOut: async () => {
      await client.delete('/api/session');
      set({ status: 'signed-out', account: null, owner: false, reason: NO_SESSION });
    },
  }));
