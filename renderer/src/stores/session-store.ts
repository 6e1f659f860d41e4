import { createStore } from 'zustand/vanilla';
import { ApiError, type ApiClient, type ApiSchemas } from '../api/client.ts';
import type { NoticesState } from './notices-store.ts';

export type SessionStatus = 'checking' | 'signed-in' | 'signed-out';

type Account = ApiSchemas['Session']['account'];
type Session = ApiSchemas['Session'];

/** A sign-in link for another account, opened while signed in: it waits for the user's answer. */
export interface SwitchRequest {
  code: string;
  /** The account the link signs in (the engine names it without spending the code). */
  account: Account;
}

export interface SessionState {
  status: SessionStatus;
  account: Account | null;
  owner: boolean;
  /** Why the user is signed out, in words (an expired link, no session yet). */
  reason: string | null;
  switchRequest: SwitchRequest | null;
  /**
   * Signs in with the code of a sign-in link (`#/sign-in/<code>`; the caller
   * clears the address bar), else asks who the cookie is. Signed in already, a
   * link for another account does not sign in: the engine keeps the code unspent
   * (409) and it becomes `switchRequest`.
   */
  start(code: string | null): Promise<void>;
  /** "Switch": spends the waiting link's code (the current session ends). True once signed in as its account. */
  switchAccount(): Promise<boolean>;
  /** "Stay": keeps the current session and forgets the link. */
  stay(): void;
  /** Ends the session on the engine, so the cookie stops working even if it was copied. */
  signOut(): Promise<void>;
}

const NO_SESSION = 'Open Hookscope with `npx hookscope open`: it signs this browser in.';

const signedIn = (s: Session) =>
  ({ status: 'signed-in', account: s.account, owner: s.owner, reason: null, switchRequest: null }) as const;
const signedOut = (reason: string) =>
  ({ status: 'signed-out', account: null, owner: false, reason, switchRequest: null }) as const;
const unanswered = (e: unknown): string => `The engine did not answer: ${String(e)}`;

/** The account a 409 ACCOUNT_SWITCH_UNCONFIRMED names as the link's (its `details.account`). */
function linkAccount(e: unknown): Account | null {
  if (!(e instanceof ApiError) || e.code !== 'ACCOUNT_SWITCH_UNCONFIRMED') return null;
  const account = (e.details as { account?: Account } | undefined)?.account;
  return account && typeof account.id === 'string' && typeof account.name === 'string' ? account : null;
}

export const createSessionStore = (client: ApiClient, notices: Pick<NoticesState, 'error'>) =>
  createStore<SessionState>()((set, get) => {
    /** Who the cookie is, when a code did not sign in; null when nobody (or no engine) answers for it. */
    const current = async (): Promise<Session | null> => client.get('/api/session').catch(() => null);

    return {
      status: 'checking',
      account: null,
      owner: false,
      reason: null,
      switchRequest: null,
      start: async (code) => {
        if (code === null) {
          try {
            set(signedIn(await client.get('/api/session')));
          } catch (e) {
            set(signedOut(e instanceof ApiError && e.status === 401 ? NO_SESSION : unanswered(e)));
          }
          return;
        }
        try {
          // The engine spends the code only if this browser is signed out or already this account.
          set(signedIn(await client.post('/api/session', { body: { code } })));
          return;
        } catch (e) {
          const session = await current();
          const account = linkAccount(e);
          if (session && account) {
            set({ ...signedIn(session), switchRequest: { code, account } });
          } else if (session) {
            set(signedIn(session));
            notices.error('Signing in with the link', e);
          } else {
            set(signedOut(e instanceof ApiError && e.status === 401 ? e.message : unanswered(e)));
          }
        }
      },
      switchAccount: async () => {
        const request = get().switchRequest;
        if (!request) return false;
        try {
          set(signedIn(await client.post('/api/session', { body: { code: request.code, switchAccount: true } })));
          return true;
        } catch (e) {
          set({ switchRequest: null });
          notices.error(`Switching to ${request.account.name}`, e);
          return false;
        }
      },
      stay: () => set({ switchRequest: null }),
      signOut: async () => {
        try {
          await client.delete('/api/session');
          set(signedOut(NO_SESSION));
        } catch (e) {
          notices.error('Signing out', e);
        }
      },
    };
  });
