import { formatBytes } from '../../lib/format.ts';
import { formatMs, type MetricsReport } from '../../lib/metrics-view.ts';

const bytes = (n: number | null): string => (n === null ? '—' : formatBytes(Math.round(n)));

/** Replay and forward attempts with their response-time percentiles, and the sizes of what arrived. */
export function MetricsReplays({ report }: { report: MetricsReport }) {
  const r = report.replays;
  const s = report.payloadSizes;
  return (
    <div className="metrics-pair">
      <section aria-labelledby="replays-title">
        <h3 id="replays-title">Replays and forwards</h3>
        <dl className="facts">
          <dt>Attempts</dt>
          <dd>
            {r.total} ({r.byTrigger.manual} replayed, {r.byTrigger.forward} forwarded
            {/* Only the desktop app on a team server sends these: named where there are any. */}
            {r.byTrigger.client > 0 && `, ${r.byTrigger.client} from this computer`})
          </dd>
          <dt>Succeeded</dt>
          <dd>{r.succeeded}</dd>
          <dt>Failed</dt>
          <dd>{r.failed}</dd>
          <dt>Response time p50</dt>
          <dd>{formatMs(r.p50Ms)}</dd>
          <dt>Response time p95</dt>
          <dd>{formatMs(r.p95Ms)}</dd>
        </dl>
      </section>
      <section aria-labelledby="sizes-title">
        <h3 id="sizes-title">Payload sizes</h3>
        <dl className="facts">
          <dt>Stored deliveries</dt>
          <dd>{s.count}</dd>
          <dt>Smallest</dt>
          <dd>{bytes(s.min)}</dd>
          <dt>Median (p50)</dt>
          <dd>{bytes(s.p50)}</dd>
          <dt>p95</dt>
          <dd>{bytes(s.p95)}</dd>
          <dt>Largest</dt>
          <dd>{bytes(s.max)}</dd>
          <dt>Average</dt>
          <dd>{bytes(s.avg)}</dd>
        </dl>
      </section>
    </div>
  );
}
