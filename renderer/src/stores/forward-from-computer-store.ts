import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.ts';
import type { DesktopBridge } from './desktop-store.ts';
import type { NoticesState } from './notices-store.ts';
import { realTimers, type StoreTimers } from './store-timers.ts';

/** One endpoint's forward from this computer, as the desktop app's main process reports it. */
export interface ForwardFromComputer {
  endpointId: string;
  targetUrl: string;
  state: 'catching-up' | 'live' | 'retrying' | 'stopped';
  /** The last line about it (a delivery's time, method, path and the target's status, or why it stopped). */
  lastLine: string | null;
}

/** How often the state is read while the group is on screen (the main process does not push it). */
export const FORWARD_POLL_MS = 2000;

export interface ForwardFromComputerState {
  /** Per endpoint id, as last read; endpoints never forwarded from here are absent. */
  forwards: Record<string, ForwardFromComputer>;
  /** Per endpoint id, the desktop app's or the team server's sentence about the last Start or Stop. */
  refusals: Record<string, string>;
  /** The endpoint whose Start or Stop is under way. */
  busy: string | null;
  refresh(): Promise<void>;
  start(endpointId: string, targetUrl: string): Promise<void>;
  stop(endpointId: string): Promise<void>;
  /** Reads now, then every FORWARD_POLL_MS until the returned function is called. */
  watch(): () => void;
}

type Bridge = Pick<
  DesktopBridge,
  'startForwardFromThisComputer' | 'stopForwardFromThisComputer' | 'forwardsFromThisComputer'
>;
/** What the desktop app answers a start or a stop: done, or its sentence. */
type BridgeAnswer = { ok: true } | { ok: false; error: string };

/**
 * "Forward from this computer" in the desktop app showing a team server: the main process forwards (it goes
 * on whatever the window shows); this store asks it to start or stop, and reads what it does. Start asks the
 * team server for a one-time sign-in code of the page's own account and hands it over: the main process
 * trades it for a token of its own, never reading this page's cookie.
 */
export const createForwardFromComputerStore = (
  client: ApiClient,
  bridge: Bridge | null,
  notices: Pick<NoticesState, 'error'>,
  timers: StoreTimers = realTimers,
) =>
  createStore<ForwardFromComputerState>()((set, get) => {
    let watchers = 0;
    let pending: unknown = null;
    const refused = (endpointId: string, sentence: string | null): void => {
      const { [endpointId]: _, ...others } = get().refusals;
      set({ refusals: sentence === null ? others : { ...others, [endpointId]: sentence } });
    };
    /** One start or stop: the endpoint marked busy, a refusal or failure said under its field, then the state read again. */
    const act = async (endpointId: string, call: (b: Bridge) => Promise<BridgeAnswer>): Promise<void> => {
      if (!bridge) return;
      set({ busy: endpointId });
      refused(endpointId, null);
      try {
        const answer = await call(bridge);
        if (!answer.ok) refused(endpointId, answer.error);
      } catch (e) {
        refused(endpointId, e instanceof Error ? e.message : String(e));
      } finally {
        set({ busy: null });
      }
      await get().refresh();
    };
    const poll = (): void => {
      pending = timers.setTimeout(() => {
        pending = null;
        void get()
          .refresh()
          .finally(() => {
            if (watchers > 0 && pending === null) poll();
          });
      }, FORWARD_POLL_MS);
    };
    return {
      forwards: {},
      refusals: {},
      busy: null,
      refresh: async () => {
        if (!bridge) return;
        try {
          const answer = await bridge.forwardsFromThisComputer();
          // Refused when no team server is shown: nothing of this computer's own is forwarded from here.
          const forwards = answer.ok ? answer.forwards : [];
          set({ forwards: Object.fromEntries(forwards.map((f) => [f.endpointId, f])) });
        } catch (e) {
          notices.error('Reading the forwards from this computer', e);
        }
      },
      start: (endpointId, targetUrl) =>
        act(endpointId, async (b) => {
          const { code } = await client.post('/api/session/codes');
          return b.startForwardFromThisComputer({ endpointId, targetUrl, signInCode: code });
        }),
      stop: (endpointId) => act(endpointId, (b) => b.stopForwardFromThisComputer({ endpointId })),
      watch: () => {
        watchers++;
        if (watchers === 1) {
          void get().refresh();
          poll();
        }
        return () => {
          watchers--;
          if (watchers === 0 && pending !== null) {
            timers.clearTimeout(pending);
            pending = null;
          }
        };
      },
    };
  });
