import { useEffect } from 'react';
import { WINDOWS, windowWords } from '../../lib/metrics-view.ts';
import { exactTime } from '../../lib/relative-time.ts';
import { useSlice, useStores } from '../../stores/app-stores.ts';
import { FailuresChart } from './failures-chart.tsx';
import { MetricsEndpointsTable } from './metrics-endpoints-table.tsx';
import { MetricsReplays } from './metrics-replays.tsx';
import { MetricsTotals } from './metrics-totals.tsx';
import { TrafficChart } from './traffic-chart.tsx';
import { engineControl, useEngineStopped } from '../shared/engine-gate.ts';
import { useNow } from '../shared/use-now.ts';

/** A time of day as the screen shows it (HH:MM:SS, local). */
const clock = (ms: number): string => exactTime(new Date(ms).toISOString()).slice(11);

/**
 * The Metrics screen (`#/metrics`): totals, traffic over time, failures by
 * reason, every endpoint and replay timings for one window. It refreshes by
 * itself while open when deliveries arrive or are refused (at most every few
 * seconds, see metrics-store.ts) and on the Refresh button. While the engine is
 * stopped it keeps the last figures it read, saying from when.
 */
export function MetricsScreen() {
  const { metrics } = useStores();
  const chosen = useSlice(metrics, (s) => s.window);
  const report = useSlice(metrics, (s) => s.report);
  const loading = useSlice(metrics, (s) => s.loading);
  const loadedAt = useSlice(metrics, (s) => s.loadedAt);
  const now = useNow(10_000);
  const stopped = useEngineStopped();

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
                {...engineControl(stopped)}
                onChange={() => void metrics.getState().setWindow(w)}
              />
              {w}
            </label>
          ))}
        </div>
        <span className="spacer" />
        {stopped && report !== null && loadedAt !== null ? (
          <span className="metrics-stale">Last known figures, from {clock(loadedAt)}; the engine is stopped</span>
        ) : (
          <span className="meta">
            {loading ? 'Refreshing…' : loadedAt !== null ? `Updated ${clock(loadedAt)}` : ''}
          </span>
        )}
        <button
          type="button"
          className="secondary"
          {...engineControl(stopped)}
          onClick={() => void metrics.getState().load()}
        >
          Refresh
        </button>
      </div>
      {report === null ? (
        <p className="empty">
          {stopped
            ? 'No figures were read before the engine stopped; they load when it is back.'
            : loading
              ? 'Loading metrics…'
              : 'No metrics yet.'}
        </p>
      ) : (
        <>
          <p className="hint">
            Over {windowWords(report.window)}. Updates by itself as deliveries arrive or are refused.
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
