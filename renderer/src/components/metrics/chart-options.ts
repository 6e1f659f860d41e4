import type uPlot from 'uplot';
import type { ChartPalette } from './use-chart-palette.ts';

/** Whole numbers only: a count axis never reads 0.5 deliveries. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1e6, 1e7];

/** The y axis of a chart of counts, in the theme's colours. */
export function countAxis(palette: ChartPalette): uPlot.Axis {
  return {
    stroke: palette.axis,
    font: palette.font,
    grid: { stroke: palette.grid, width: 1 },
    ticks: { show: false },
    incrs: COUNT_STEPS,
    size: 44,
  };
}

/**
 * A key of colours and names only: the figures are in the caption and the table
 * next to each chart, so the legend does not repeat them on hover (it would read "--" at rest).
 */
export const legend: uPlot.Legend = { live: false };
