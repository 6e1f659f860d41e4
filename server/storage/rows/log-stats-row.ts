import type { LogSizeStats, LogStatsCell } from '../../logs/log-types.ts';

/**
 * The rows of the metrics' grouped queries (LogsRepository.stats), the same on both
 * backends, and the figures made from them. Counts and sums come back as numbers
 * or numeric text depending on the backend (PostgreSQL's SUM of a bigint is
 * numeric), hence the Number() on each.
 */
export interface StatsRow {
  endpoint_id: string;
  bucket: number;
  success: number;
  failed: number;
  last: number;
  n: number;
  /** Only in the per-log query; sql.js's per-hour one reads them from logs_by_size. */
  min_size?: number;
  max_size?: number;
  sum_size: number | string;
}

export interface FailureRow {
  reason: string;
  count: number;
}

export const fromFailureRow = (r: FailureRow): { reason: string; count: number } => ({
  reason: r.reason,
  count: Number(r.count),
});

/** The cells of grouped rows, and the sizes' count and average (min, max and percentiles are left null). */
export function fromGroups(groups: readonly StatsRow[]): { cells: LogStatsCell[]; sizes: LogSizeStats } {
  const cells: LogStatsCell[] = [];
  const sizes: LogSizeStats = { count: 0, min: null, max: null, avg: null, p50: null, p95: null };
  let sum = 0;
  for (const g of groups) {
    cells.push({
      endpointId: g.endpoint_id,
      bucket: Number(g.bucket),
      success: Number(g.success),
      failed: Number(g.failed),
      lastReceivedAt: Number(g.last),
    });
    sizes.count += Number(g.n);
    sum += Number(g.sum_size);
  }
  if (sizes.count > 0) sizes.avg = sum / sizes.count;
  return { cells, sizes };
}

/** The smallest and largest size over the groups of the per-log query. */
export function withMinMax(sizes: LogSizeStats, groups: readonly StatsRow[]): void {
  for (const g of groups) {
    sizes.min = sizes.min === null ? Number(g.min_size) : Math.min(sizes.min, Number(g.min_size));
    sizes.max = sizes.max === null ? Number(g.max_size) : Math.max(sizes.max, Number(g.max_size));
  }
}
