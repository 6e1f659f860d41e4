import { useMemo } from 'react';
import uPlot from 'uplot';
import { bucketLabel, timeTick, trafficColumns, trafficSummary, type MetricsReport } from '../../lib/metrics-view.ts';
import { countAxis, legend } from './chart-options.ts';
import { UplotChart } from './uplot-chart.tsx';
import { useChartPalette } from './use-chart-palette.ts';

/** Deliveries per bucket as stacked bars by outcome, with its caption and the same numbers as a table. */
export function TrafficChart({ report }: { report: MetricsReport }) {
  const palette = useChartPalette();
  const data = useMemo(() => trafficColumns(report.series), [report.series]);
  const from = Date.parse(report.from) / 1000;
  const to = Date.parse(report.to) / 1000;
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(() => {
    // Each bar starts at its bucket's start and fills the bucket (the x range is the whole window).
    const bars = uPlot.paths.bars!({ size: [0.8, 48], align: 1 });
    const bar = (label: string, colour: string): uPlot.Series => ({
      label,
      fill: colour,
      stroke: colour,
      width: 0, // no outline: an empty bucket draws nothing rather than a hairline
      paths: bars,
      points: { show: false },
    });
    return {
      scales: { x: { time: true, range: () => [from, to] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        {
          stroke: palette.axis,
          font: palette.font,
          grid: { show: false },
          ticks: { show: false },
          size: 30,
          space: to - from > 86_400 ? 100 : 60, // dates are wider than times
          values: (_u, splits) => splits.map((s) => timeTick(s, to - from)),
        },
        countAxis(palette),
      ],
      // Tallest first: each later bar is drawn over the one before (see trafficColumns).
      series: [{}, bar('Rejected', palette.rejected), bar('Failed', palette.failed), bar('Success', palette.success)],
      legend,
      cursor: { show: false },
    };
  }, [palette, from, to]);
  return (
    <figure className="metric-figure">
      <figcaption>{trafficSummary(report)}</figcaption>
      <div aria-hidden="true">
        <UplotChart options={options} data={data} height={220} />
      </div>
      <details>
        <summary>Traffic as a table</summary>
        <table className="metrics-table">
          <caption className="visually-hidden">Deliveries per {bucketWords(report.bucketSeconds)}</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
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
            </tr>
          </thead>
          <tbody>
            {report.series.map((p) => (
              <tr key={p.t}>
                <th scope="row">
                  <time dateTime={p.t}>{bucketLabel(p.t, report.bucketSeconds)}</time>
                </th>
                <td className="num">{p.received}</td>
                <td className="num">{p.success}</td>
                <td className="num">{p.failed}</td>
                <td className="num">{p.rejected}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function bucketWords(seconds: number): string {
  if (seconds === 60) return 'minute';
  if (seconds === 3600) return 'hour';
  if (seconds === 86_400) return 'day';
  return `${seconds / 3600} hours`;
}
