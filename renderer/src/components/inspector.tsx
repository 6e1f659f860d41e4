import { useEffect } from 'react';
import { useSlice, useStores } from '../stores/app-stores.ts';
import { DeliveriesPane } from './deliveries-pane.tsx';
import { CompareView } from './compare-view.tsx';
import { DetailPane } from './detail-pane.tsx';
import { EndpointsPane } from './endpoints-pane.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';
import { useDeepLink } from './use-deep-link.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useUnreadTitle } from './use-unread-title.ts';
import { MetricsScreen } from './metrics-screen.tsx';
import { SettingsScreen } from './settings-screen.tsx';
import { TopBar } from './top-bar.tsx';
import { useView } from './use-view.ts';

/** The three panes, or the screen the address names (#/metrics), under the top bar, fed by the live event stream. */
export function Inspector() {
  const stores = useStores();
  useShortcuts(stores);
  useDeepLink(stores);
  useUnreadTitle(stores);
  const comparison = useSlice(stores.compare, (s) => s.comparison);
  const view = useView();
  useEffect(() => {
    const stop = new AbortController();
    void stores.tunnel.getState().load();
    void stores.live.getState().follow(
      stop.signal,
      (event) => {
        switch (event.event) {
          case 'log.created':
            stores.deliveries.getState().received(event.data);
            stores.metrics.getState().changed();
            break;
          case 'replay.completed':
          case 'forward.updated':
            stores.metrics.getState().changed();
            break;
          case 'log.deleted':
            stores.deliveries.getState().deleted(event.data.logIds);
            break;
          case 'log.updated':
            void stores.deliveries.getState().updated(event.data.logId);
            break;
          case 'endpoint.changed':
            void stores.endpoints.getState().load();
            break;
          case 'settings.changed':
            stores.settings.getState().changed();
            break;
          case 'tunnel.status':
            stores.tunnel.getState().changed(event.data);
            void stores.endpoints.getState().load(); // receiving URLs follow the public URL
            break;
          default:
            break;
        }
      },
      // Every (re)connection: what happened while away is read again, so nothing is missed.
      () => {
        void stores.endpoints.getState().load();
        void stores.deliveries.getState().load();
        stores.metrics.getState().changed();
      },
    );
    return () => stop.abort();
  }, [stores]);

  return (
    <div className="app">
      <TopBar />
      {view === 'metrics' ? (
        <MetricsScreen />
      ) : view === 'settings' ? (
        <SettingsScreen />
      ) : (
        <div className="panes">
          <EndpointsPane />
          <DeliveriesPane />
          {comparison ? <CompareView comparison={comparison} /> : <DetailPane />}
        </div>
      )}
      <ShortcutsDialog />
    </div>
  );
}
