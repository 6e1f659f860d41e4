import { useEffect } from 'react';
import { WINDOWS, windowWords } from '../../lib/metrics-view.ts';
import { exactTime } from '../../lib/relative-time.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { FailuresChart } from './failures-chart.tsx';
import { MetricsEndpointsTable } from './metrics-endpoints-table.tsx';
import { MetricsReplays } from './metrics-replays.tsx';
import { MetricsTotals } from './metrics-totals.tsx';
import { TrafficChart } from './traffic-chart.tsx';
import { useNow } from '../shared/use-now.ts';

/**
 * The Metrics screen (`#/metrics`): totals, traffic over time, failures by
 * reason, every endpoint and replay timings for one window. It refreshes by
 * itself while open when deliveries arrive (at most every few seconds, see
 * metrics-store.ts) and on the Refresh button, which also catches rejections:
 * refused deliveries are stored nowhere, so no event announces them.
 */
export function MetricsScreen() {
  const { metrics } = useStores();
  const chosen = useSlice(metrics, (s) => s.window);
  const report = useSlice(metrics, (s) => s.report);
  const loading = useSlice(metrics, (s) => s.loading);
  const loadedAt = useSlice(metrics, (s) => s.loadedAt);
  const now = useNow(10_000);

  useEffect(() => {
    metrics.getState().show(true);
    return () => metrics.getState().show(false);
  }, [metrics]);

  return (
    <main className="metrics" aria-labelledby="metrics-title" aria-busy={loading}>
      <div className="metrics-head">
        <h2 id="metrics-title">Metrics</h2>
        <div role="radiogroup" aria-label="Window" className="chips">
          {WINDOWS.map((w) => (
            <label key={w} className={chosen === w ? 'chip selected' : 'chip'} title={`Over ${windowWords(w)}`}>
              <input
                type="radio"
                name="metrics-window"
                value={w}
                checked={chosen === w}
                onChange={() => void metrics.getState().setWindow(w)}
              />
              {w}
            </label>
          ))}
        </div>
        <span className="spacer" />
        <span className="meta">
          {loading
            ? 'Refreshing…'
            : loadedAt !== null
              ? `Updated ${exactTime(new Date(loadedAt).toISOString()).slice(11)}`
              : ''}
        </span>
        <button type="button" className="secondary" onClick={() => void metrics.getState().load()}>
          Refresh
        </button>
      </div>
      {report === null ? (
        <p className="empty">{loading ? 'Loading metrics…' : 'No metrics yet.'}</p>
      ) : (
        <>
          <p className="hint">
            Over {windowWords(report.window)}. Updates by itself as deliveries arrive; refused deliveries (inactive
            endpoint, rate limit) show after a refresh.
          </p>
          <MetricsTotals report={report} />
          <section className="metrics-section" aria-labelledby="traffic-title">
            <h3 id="traffic-title">Traffic over time</h3>
            <TrafficChart report={report} />
          </section>
          <section className="metrics-section" aria-labelledby="failures-title">
            <h3 id="failures-title">Failures by reason</h3>
            <FailuresChart report={report} />
          </section>
          <section className="metrics-section" aria-labelledby="endpoints-title">
            <h3 id="endpoints-title">Endpoints</h3>
            <MetricsEndpointsTable report={report} now={now} />
          </section>
          <MetricsReplays report={report} />
        </>
      )}
    </main>
  );
}
