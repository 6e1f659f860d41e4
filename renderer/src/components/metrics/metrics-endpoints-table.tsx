import { formatRate, type MetricsReport } from '../../lib/metrics-view.ts';
import { exactTime, relativeTime } from '../../lib/relative-time.ts';

/** Every endpoint of the account with its figures in the window, most received first (the engine's order). */
export function MetricsEndpointsTable({ report, now }: { report: MetricsReport; now: number }) {
  if (report.endpoints.length === 0) return <p className="empty">No endpoints yet.</p>;
  return (
    <table className="metrics-table">
      <caption className="visually-hidden">Deliveries per endpoint</caption>
      <thead>
        <tr>
          <th scope="col">Endpoint</th>
          <th scope="col" className="num">
            Received
          </th>
          <th scope="col" className="num">
            Success
          </th>
          <th scope="col" className="num">
            Failed
          </th>
          <th scope="col" className="num">
            Rejected
          </th>
          <th scope="col" className="num">
            Success rate
          </th>
          <th scope="col">Last delivery</th>
        </tr>
      </thead>
      <tbody>
        {report.endpoints.map((e) => (
          <tr key={e.endpointId}>
            <th scope="row">
              {e.name} <code className="endpoint-id">{e.endpointId}</code>
            </th>
            <td className="num">{e.received}</td>
            <td className="num">{e.success}</td>
            <td className="num">{e.failed}</td>
            <td className="num">{e.rejected}</td>
            <td className="num">{formatRate(e.successRate)}</td>
            <td>
              {e.lastReceivedAt ? (
                <time dateTime={e.lastReceivedAt} title={exactTime(e.lastReceivedAt)}>
                  {relativeTime(Date.parse(e.lastReceivedAt), now)}
                </time>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
