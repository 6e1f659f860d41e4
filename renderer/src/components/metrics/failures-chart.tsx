import { useMemo } from 'react';
import uPlot from 'uplot';
import { failureColumns, failureReasons, reasonWords, type MetricsReport } from '../../lib/metrics-view.ts';
import { countAxis, legend } from './chart-options.ts';
import { UplotChart } from './uplot-chart.tsx';
import { useChartPalette } from './use-chart-palette.ts';

/** Failed verifications and rejections by reason: a bar each, and the same as a table beside it. */
export function FailuresChart({ report }: { report: MetricsReport }) {
  const palette = useChartPalette();
  const reasons = useMemo(() => failureReasons(report), [report]);
  const data = useMemo(() => failureColumns(reasons), [reasons]);
  const labels = useMemo(() => reasons.map((r) => reasonWords(r.reason)), [reasons]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(() => {
    const bars = uPlot.paths.bars!({ size: [0.6, 64], align: 0 });
    return {
      scales: {
        x: { time: false, range: () => [-0.5, labels.length - 0.5] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [
        {
          stroke: palette.axis,
          font: palette.font,
          grid: { show: false },
          ticks: { show: false },
          size: 30,
          splits: () => labels.map((_, i) => i),
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        },
        countAxis(palette),
      ],
      series: [
        {},
        {
          label: 'Failed verification',
          fill: palette.failed,
          stroke: palette.failed,
          paths: bars,
          points: { show: false },
        },
        {
          label: 'Rejected',
          fill: palette.rejected,
          stroke: palette.rejected,
          paths: bars,
          points: { show: false },
          width: 0,
        },
      ],
      legend,
      cursor: { show: false },
    };
  }, [palette, labels]);

  if (reasons.length === 0) return <p className="empty">No failed or rejected deliveries in this window.</p>;
  return (
    <div className="failures">
      <div aria-hidden="true" className="failures-chart">
        <UplotChart options={options} data={data} height={200} />
      </div>
      <table className="metrics-table">
        <caption className="visually-hidden">Failures by reason</caption>
        <thead>
          <tr>
            <th scope="col">Reason</th>
            <th scope="col">Kind</th>
            <th scope="col" className="num">
              Count
            </th>
          </tr>
        </thead>
        <tbody>
          {reasons.map((r) => (
            <tr key={`${r.kind}:${r.reason}`}>
              <th scope="row">
                <code>{r.reason}</code>
              </th>
              <td>{r.kind === 'failed' ? 'Failed verification' : 'Rejected (not stored)'}</td>
              <td className="num">{r.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
