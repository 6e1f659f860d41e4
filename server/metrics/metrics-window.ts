/** The windows metrics can be asked for, each cut into a fixed number of buckets. */
export const METRICS_WINDOWS = ['1h', '24h', '7d', '30d'] as const;
export type MetricsWindowName = (typeof METRICS_WINDOWS)[number];
export const DEFAULT_WINDOW: MetricsWindowName = '24h';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const SHAPES: Record<MetricsWindowName, { bucketMs: number; buckets: number }> = {
  '1h': { bucketMs: MINUTE, buckets: 60 },
  '24h': { bucketMs: HOUR, buckets: 24 },
  '7d': { bucketMs: 6 * HOUR, buckets: 28 },
  '30d': { bucketMs: DAY, buckets: 30 },
};

/** The finest bucket of any window: rejection counts are kept at this grain. */
export const MIN_BUCKET_MS = MINUTE;
/** The longest window: counts older than this are never asked for again. */
export const MAX_WINDOW_MS = 30 * DAY;

export interface MetricsWindow {
  window: MetricsWindowName;
  /** Start of the first bucket (inclusive). */
  fromMs: number;
  /** End of the last bucket (exclusive); the last bucket holds `nowMs`, so `toMs` may lie ahead of it. */
  toMs: number;
  bucketMs: number;
  buckets: number;
}

/**
 * The buckets of a window at `nowMs`, aligned to whole buckets counted from the
 * epoch (so minutes, UTC hours, 00/06/12/18 UTC and UTC midnights). The last
 * bucket is the one `nowMs` falls in, still filling; the window reaches back
 * `buckets - 1` whole buckets before it. The same query a moment later lands on
 * the same boundaries, so charts do not jitter.
 */
export function metricsWindow(window: MetricsWindowName, nowMs: number): MetricsWindow {
  const { bucketMs, buckets } = SHAPES[window];
  const toMs = Math.floor(nowMs / bucketMs) * bucketMs + bucketMs;
  return { window, fromMs: toMs - buckets * bucketMs, toMs, bucketMs, buckets };
}

/** Which bucket a moment falls in, or -1 outside the window. */
export function bucketIndex(w: MetricsWindow, atMs: number): number {
  if (atMs < w.fromMs || atMs >= w.toMs) return -1;
  return Math.floor((atMs - w.fromMs) / w.bucketMs);
}

/** Start of the bucket `index` (what the series calls `t`). */
export const bucketStart = (w: MetricsWindow, index: number): number => w.fromMs + index * w.bucketMs;

/** Start of the minute a moment falls in (the grain rejections are counted at). */
export const minuteOf = (atMs: number): number => Math.floor(atMs / MIN_BUCKET_MS) * MIN_BUCKET_MS;
