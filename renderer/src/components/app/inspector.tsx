import { useSlice, useStores } from '../../stores/app-stores.ts';
import { DeliveriesPane } from '../deliveries/deliveries-pane.tsx';
import { CompareView } from '../detail/compare/compare-view.tsx';
import { DetailPane } from '../detail/detail-pane.tsx';
import { EndpointsPane } from '../endpoints/endpoints-pane.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';
import { useDeepLink } from './use-deep-link.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useUnreadTitle } from './use-unread-title.ts';
import { MetricsScreen } from '../metrics/metrics-screen.tsx';
import { SettingsScreen } from '../settings/settings-screen.tsx';
import { TopBar } from '../top-bar/top-bar.tsx';
import { useView } from './use-view.ts';

/** The three panes, or the screen the address names (#/metrics), under the top bar (stores/connect-live.ts feeds them). */
export function Inspector() {
  const stores = useStores();
  useShortcuts(stores);
  useDeepLink(stores);
  useUnreadTitle(stores);
  const comparison = useSlice(stores.compare, (s) => s.comparison);
  const view = useView();

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
