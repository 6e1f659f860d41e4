/**
 * The 1-based rank of the p-th percentile among n sorted values, by the
 * nearest-rank method: the smallest value with at least p of all values at or
 * below it. Always an observed value (a size or a time that really happened),
 * never an interpolation. n must be at least 1.
 */
export function nearestRank(p: number, n: number): number {
  if (n < 1) throw new RangeError('nearestRank needs at least one value');
  if (p <= 0) return 1;
  // Round away float noise first (0.07 * 100 is 7.000000000000001) so the ceil is the intended one.
  return Math.min(n, Math.max(1, Math.ceil(Math.round(p * n * 1e9) / 1e9)));
}

/** The p-th percentile (0..1) of values sorted ascending, by nearest rank; null for no values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[nearestRank(p, sorted.length) - 1]!;
}

/**
 * nearestRank(percent / 100, n) as SQL integer arithmetic over the column or expression
 * `n`: ceil(percent * n / 100), for a whole percent. For queries that learn n themselves.
 */
export function nearestRankSql(percent: number, n: string): string {
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new RangeError('a whole percent from 1 to 100');
  return `((${percent} * (${n}) + 99) / 100)`;
}
