import { formatRate, type MetricsReport } from '../../lib/metrics-view.ts';

/** The window's totals as labelled figures: received = success + failed + rejected, and the success rate. */
export function MetricsTotals({ report }: { report: MetricsReport }) {
  const { received, success, failed, rejected } = report.totals;
  const figures: [string, string, string][] = [
    ['Received', String(received), ''],
    ['Success', String(success), 'ok'],
    ['Failed', String(failed), failed > 0 ? 'bad' : ''],
    ['Rejected', String(rejected), rejected > 0 ? 'warn' : ''],
    ['Success rate', formatRate(report.successRate), ''],
  ];
  return (
    <dl className="totals">
      {figures.map(([label, value, tone]) => (
        <div key={label} className={tone ? `total total-${tone}` : 'total'}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
