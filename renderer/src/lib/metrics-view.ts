import type { ApiSchemas } from '../api/client.ts';
import { enumKeys } from './enum-keys.ts';

export type MetricsReport = ApiSchemas['MetricsReport'];
export type MetricsWindow = MetricsReport['window'];
export type SeriesPoint = MetricsReport['series'][number];

const WINDOW_WORDS: Record<MetricsWindow, string> = {
  '1h': 'the last hour',
  '24h': 'the last 24 hours',
  '7d': 'the last 7 days',
  '30d': 'the last 30 days',
};

/** The windows the engine answers (GET /api/observability/metrics?window=), shortest first. */
export const WINDOWS: readonly MetricsWindow[] = enumKeys(WINDOW_WORDS);

/** "the last 24 hours": the window in words, for captions. */
export function windowWords(w: MetricsWindow): string {
  return WINDOW_WORDS[w];
}

/** 0.6667 -> "66.7%"; null (nothing received, so no rate) -> "—". Whole rates drop the decimal. */
export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  const pct = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(pct) ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

/** 12.4 -> "12 ms", 1534 -> "1.53 s"; null (no replay in the window) -> "—". */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * The traffic chart's columns, in uPlot's aligned form, stacked: bucket starts
 * in Unix seconds, then the bar tops from the tallest down, each drawn over the
 * one before: received (its top part is the rejected), success + failed (the
 * failed part), success. So one bar per bucket reads as its three outcomes.
 */
export function trafficColumns(series: readonly SeriesPoint[]): [number[], number[], number[], number[]] {
  return [
    series.map((p) => Date.parse(p.t) / 1000),
    series.map((p) => p.success + p.failed + p.rejected),
    series.map((p) => p.success + p.failed),
    series.map((p) => p.success),
  ];
}

/**
 * A time axis tick: "14:05" when the chart spans a day or less, else the date,
 * with the time unless it is midnight ("24 Nov", "24 Nov 06:00"). Local time,
 * 24-hour clock, like bucketLabel. `timeZone` is for tests.
 */
export function timeTick(unixSeconds: number, spanSeconds: number, timeZone?: string): string {
  const d = new Date(unixSeconds * 1000);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);
  if (spanSeconds <= 86_400) return time;
  const date = new Intl.DateTimeFormat('en-GB', { timeZone, month: 'short', day: 'numeric' }).format(d);
  return time === '00:00' ? date : `${date} ${time}`;
}

export interface FailureReason {
  reason: string;
  /** `failed`: stored, its signature check failed; `rejected`: refused without storing (410, 429). */
  kind: 'failed' | 'rejected';
  count: number;
}

/** Verification failures and rejections in one list, most first (ties: failures before rejections, then by reason). */
export function failureReasons(report: Pick<MetricsReport, 'verificationFailures' | 'rejections'>): FailureReason[] {
  const all: FailureReason[] = [
    ...report.verificationFailures.map((f) => ({ reason: f.reason, kind: 'failed' as const, count: f.count })),
    ...report.rejections.map((r) => ({ reason: r.reason, kind: 'rejected' as const, count: r.count })),
  ];
  return all.sort(
    (a, b) =>
      b.count - a.count || (a.kind === b.kind ? 0 : a.kind === 'failed' ? -1 : 1) || (a.reason < b.reason ? -1 : 1),
  );
}

/**
 * The failures chart's columns: one category per reason (x = 0, 1, ...), a
 * column for verification failures and one for rejections, null where the
 * reason is of the other kind, so each category has exactly one bar.
 */
export function failureColumns(reasons: readonly FailureReason[]): [number[], (number | null)[], (number | null)[]] {
  return [
    reasons.map((_, i) => i),
    reasons.map((r) => (r.kind === 'failed' ? r.count : null)),
    reasons.map((r) => (r.kind === 'rejected' ? r.count : null)),
  ];
}

/** "no_matching_signature" -> "no matching signature": reasons as a chart axis shows them. */
export function reasonWords(reason: string): string {
  return reason.replaceAll('_', ' ');
}

/**
 * A bucket's start as the traffic table shows it: the time of day for minute
 * and hour buckets ("14:05"), with the date for 6-hour buckets ("24 Nov, 18:00"),
 * the date alone for day buckets ("24 Nov"); 24-hour clock, day before month, in
 * every locale, like the rest of the UI. `timeZone` is for tests; the page uses the browser's.
 */
export function bucketLabel(iso: string, bucketSeconds: number, timeZone?: string): string {
  const withDate = bucketSeconds >= 6 * 3600;
  const withTime = bucketSeconds < 86_400;
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    ...(withDate ? { month: 'short', day: 'numeric' } : {}),
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
  }).format(new Date(iso));
}

/**
 * The traffic chart in one sentence, its caption for everyone (and its text for
 * screen readers): "5 deliveries in the last hour: 3 succeeded, 1 failed, 1 rejected. Busiest: 14:05 (3)."
 */
export function trafficSummary(
  report: Pick<MetricsReport, 'window' | 'totals' | 'series' | 'bucketSeconds'>,
  timeZone?: string,
): string {
  const { received, success, failed, rejected } = report.totals;
  const head = `${received} ${received === 1 ? 'delivery' : 'deliveries'} in ${windowWords(report.window)}`;
  if (received === 0) return `${head}.`;
  const busiest = report.series.reduce<SeriesPoint | null>(
    (best, p) => (best === null || p.received > best.received ? p : best),
    null,
  );
  const peak = busiest
    ? ` Busiest: ${bucketLabel(busiest.t, report.bucketSeconds, timeZone)} (${busiest.received}).`
    : '';
  return `${head}: ${success} succeeded, ${failed} failed, ${rejected} rejected.${peak}`;
}
