import { useSlice, useStores } from '../../stores/app-stores.ts';
import { DeliveriesPane } from '../deliveries/deliveries-pane.tsx';
import { CompareView } from '../detail/compare/compare-view.tsx';
import { DetailPane } from '../detail/detail-pane.tsx';
import { EndpointsPane } from '../endpoints/endpoints-pane.tsx';
import { EngineStoppedAlert } from './engine-stopped-alert.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';
import { useDeepLink } from './use-deep-link.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useUnreadTitle } from './use-unread-title.ts';
import { MetricsScreen } from '../metrics/metrics-screen.tsx';
import { ViewBoundary } from '../shared/view-boundary.tsx';
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
  const selectedId = useSlice(stores.selection, (s) => s.selectedId);
  const view = useView();

  return (
    <div className="app">
      <TopBar />
      <EngineStoppedAlert />
      {/* Each pane fails alone: its error in its place, the others still working. */}
      {view === 'metrics' ? (
        <ViewBoundary what="Metrics" className="screen-failed">
          <MetricsScreen />
        </ViewBoundary>
      ) : view === 'settings' ? (
        <ViewBoundary what="Settings" className="screen-failed">
          <SettingsScreen />
        </ViewBoundary>
      ) : (
        <div className="panes">
          <ViewBoundary what="The endpoints" className="pane">
            <EndpointsPane />
          </ViewBoundary>
          <ViewBoundary what="The deliveries" className="pane">
            <DeliveriesPane />
          </ViewBoundary>
          <ViewBoundary what="The delivery" className="pane" resetKey={comparison ?? selectedId}>
            {comparison ? <CompareView comparison={comparison} /> : <DetailPane />}
          </ViewBoundary>
        </div>
      )}
      <ShortcutsDialog />
    </div>
  );
}
