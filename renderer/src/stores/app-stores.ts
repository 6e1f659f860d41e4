import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.ts';
import { createDeliveryListStore } from './delivery-list-store.ts';
import { createDesktopStore, type DesktopBridge } from './desktop-store.ts';
import { createEndpointsStore } from './endpoints-store.ts';
import { createForwardFromComputerStore } from './forward-from-computer-store.ts';
import { createLiveStore } from './live-store.ts';
import { createMetricsStore } from './metrics-store.ts';
import { createNoticesStore } from './notices-store.ts';
import { createSessionStore } from './session-store.ts';
import { createSettingsStore } from './settings-store.ts';
import { createThemeStore } from './theme-store.ts';
import { createTunnelStore } from './tunnel-store.ts';
import { createAnalysisStore } from './analysis-store.ts';
import { createCompareStore } from './compare-store.ts';
import { createRefusalsStore } from './refusals-store.ts';
import { createReplayStore } from './replay-store.ts';
import { createSelectionStore } from './selection-store.ts';
import { createShareStore } from './share-store.ts';
import { createUiStore } from './ui-store.ts';
import { createExportStore } from './export-store.ts';

/**
 * One store per domain, made once per page for one engine; components reach them through context. `desktop`
 * is the desktop app's bridge (`window.hookscopeDesktop`), null in a browser.
 */
export function createAppStores(
  client: ApiClient,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  desktop: DesktopBridge | null = null,
) {
  const notices = createNoticesStore();
  const report = notices.getState();
  const selection = createSelectionStore(client, report);
  const live = createLiveStore(client);
  // While the engine is stopped, stores that read by themselves keep what they show instead of failing.
  const engineStopped = (): boolean => live.getState().state === 'stopped';
  const desktopStore = createDesktopStore(desktop, report);
  // In the desktop app, replays the team server shown cannot reach (this computer's) are sent by the app.
  const replaySender = desktop && { bridge: desktop, engine: () => desktopStore.getState().engine };
  return {
    notices,
    session: createSessionStore(client, report),
    endpoints: createEndpointsStore(client, report),
    deliveries: createDeliveryListStore(client, report, selection.getState()),
    selection,
    live,
    tunnel: createTunnelStore(client, report),
    theme: createThemeStore(storage),
    replay: createReplayStore(client, report, storage, replaySender),
    share: createShareStore(client, report),
    analysis: createAnalysisStore(client, report),
    ui: createUiStore(),
    compare: createCompareStore(client, report),
    metrics: createMetricsStore(client, report, undefined, engineStopped),
    refusals: createRefusalsStore(client, report, undefined, engineStopped),
    exports: createExportStore(client, report),
    settings: createSettingsStore(client, report),
    desktop: desktopStore,
    forwardFromComputer: createForwardFromComputerStore(client, desktop, report),
  };
}

export type AppStores = ReturnType<typeof createAppStores>;

export const StoresContext = createContext<AppStores | null>(null);

export function useStores(): AppStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores outside <StoresContext.Provider>');
  return stores;
}

/** Reads a slice of one store, re-rendering when it changes. */
export function useSlice<S, T>(store: StoreApi<S>, selector: (state: S) => T): T {
  return useStore(store, selector);
}
