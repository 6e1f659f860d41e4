import { createStore } from 'zustand/vanilla';
import { followEvents, type EngineEventShape } from '../../../server/api-client/event-follower.ts';
import { ApiError, type ApiClient } from '../api/client.ts';
import { realTimers, type StoreTimers } from './store-timers.ts';

/**
 * `reconnecting`: the connection dropped a moment ago (a blip, for now). `stopped`: it
 * has stayed down for STOPPED_AFTER_MS with no answer from the engine. `refused`: the
 * engine answers but turns the stream down (a 4xx, such as a session it no longer knows).
 */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'stopped' | 'refused';

/**
 * How long the live connection may stay down, with no answer from the engine, before
 * the page says the engine stopped. A shorter drop is a blip (an idle connection
 * replaced, a laptop waking up) and keeps the "Reconnecting" pill. The follower tries
 * again after 0.1, 0.2, 0.4, 0.8, 1.6 and then every 2 s, so by 5 s five attempts have
 * found nobody listening; an engine restarted by hand takes longer than that anyway.
 */
export const STOPPED_AFTER_MS = 5000;

/** After a first connection that failed, the wait before the next one (later ones are the follower's). */
export const FIRST_RETRY_MS = 2000;

export interface LiveStore {
  state: LiveState;
  /** The follower's last words about the connection, for the indicator's tooltip. */
  message: string;
  /**
   * Follows `/api/events` until `signal` aborts, however long the engine is away.
   * `onEvent` gets each event; `onBackfill` runs on every (re)connection, after
   * which nothing is missed.
   */
  follow(signal: AbortSignal, onEvent: (event: EngineEventShape) => void, onBackfill: () => void): Promise<void>;
}

/** The engine answered (a 4xx): it runs, it only refuses. No answer or a 5xx (a proxy's, say) is an engine away. */
const answered = (e: unknown): e is ApiError => e instanceof ApiError && e.status > 0 && e.status < 500;

export const createLiveStore = (client: ApiClient, timers: StoreTimers = realTimers) =>
  createStore<LiveStore>()((set, get) => ({
    state: 'connecting',
    message: 'Connecting to the engine',
    follow: async (signal, onEvent, onBackfill) => {
      // The pending verdict "stopped": armed when the connection is lost and again at each
      // refusal (the engine still answers), cleared once connected. It fires only after
      // STOPPED_AFTER_MS in which no attempt got any answer.
      let verdict: unknown = null;
      const disarm = (): void => {
        if (verdict !== null) timers.clearTimeout(verdict);
        verdict = null;
      };
      const arm = (): void => {
        disarm();
        verdict = timers.setTimeout(() => {
          verdict = null;
          set({ state: 'stopped', message: 'The engine does not answer; waiting for it to come back.' });
        }, STOPPED_AFTER_MS);
      };
      const lost = (message: string): void => {
        const state = get().state;
        if (state === 'live' || state === 'connecting') {
          set({ state: 'reconnecting', message });
          arm();
        } else set({ message });
      };
      const refused = (e: ApiError): void => {
        set({ state: 'refused', message: `The engine refuses live events: ${e.message}` });
        arm();
      };
      try {
        while (!signal.aborted) {
          try {
            await followEvents<EngineEventShape>({
              connect: async () => client,
              signal,
              onEvent,
              onConnected: () => {
                disarm();
                set({ state: 'live', message: 'Receiving live events' });
                onBackfill();
              },
              onStatus: lost,
              // The page cannot restart the engine; it waits for it as long as it is open. Called for
              // errors other than no answer and 5xx, that is, answers: the engine is there.
              isRetriable: (e) => {
                if (answered(e)) refused(e);
                return true;
              },
            });
          } catch (e) {
            // Only a first connection's failure ends the follower; this page starts it again.
            if (signal.aborted) break;
            if (answered(e)) refused(e);
            else lost(`The engine is not answering: ${e instanceof Error ? e.message : String(e)}`);
            await new Promise<void>((resolve) => {
              const handle = timers.setTimeout(resolve, FIRST_RETRY_MS);
              signal.addEventListener(
                'abort',
                () => {
                  timers.clearTimeout(handle);
                  resolve();
                },
                { once: true },
              );
            });
          }
        }
      } finally {
        // Signed out: no verdict may come after the page stopped following.
        disarm();
      }
    },
  }));
