import { createStore } from 'zustand/vanilla';
import { followEvents, type EngineEventShape } from '../../../server/api-client/event-follower.ts';
import type { ApiClient } from '../api/client.ts';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface LiveStore {
  state: LiveState;
  /** The follower's last words about the connection, for the indicator's tooltip. */
  message: string;
  /**
   * Follows `/api/events` until `signal` aborts. `onEvent` gets each event;
   * `onBackfill` runs on every (re)connection, after which nothing is missed.
   */
  follow(signal: AbortSignal, onEvent: (event: EngineEventShape) => void, onBackfill: () => void): Promise<void>;
}

export const createLiveStore = (client: ApiClient) =>
  createStore<LiveStore>()((set) => ({
    state: 'connecting',
    message: 'Connecting to the engine',
    follow: async (signal, onEvent, onBackfill) => {
      try {
        await followEvents<EngineEventShape>({
          connect: async () => client,
          signal,
          onEvent,
          onConnected: () => {
            set({ state: 'live', message: 'Receiving live events' });
            onBackfill();
          },
          onStatus: (message) => set({ state: 'reconnecting', message }),
          // The page cannot restart the engine; it waits for it as long as it is open.
          isRetriable: () => true,
        });
      } catch (e) {
        set({ state: 'stopped', message: `Live events stopped: ${e instanceof Error ? e.message : String(e)}` });
      }
    },
  }));
