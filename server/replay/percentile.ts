/**
 * Nearest-rank percentile of values sorted ascending: the smallest value with at
 * least p% of the values at or below it. Exact (no interpolation, no sketch);
 * null for no values.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}
