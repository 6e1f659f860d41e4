import { describe, expect, test } from 'vitest';
import {
  bucketLabel,
  failureColumns,
  failureReasons,
  formatMs,
  formatRate,
  timeTick,
  trafficColumns,
  trafficSummary,
  type SeriesPoint,
} from './metrics-view.ts';

const point = (t: string, success: number, failed: number, rejected: number): SeriesPoint => ({
  t,
  received: success + failed + rejected,
  success,
  failed,
  rejected,
});

describe('metrics figures in words', () => {
  test.each([
    [null, '—'],
    [0, '0%'],
    [1, '100%'],
    [0.5, '50%'],
    [3 / 7, '42.9%'],
    [2 / 3, '66.7%'],
    [0.99996, '100%'],
  ])('rate %s reads "%s"', (rate, words) => {
    expect(formatRate(rate)).toBe(words);
  });

  test.each([
    [null, '—'],
    [0.4, '0 ms'],
    [12.5, '13 ms'],
    [999.4, '999 ms'],
    [1534, '1.53 s'],
  ])('%s ms reads "%s"', (ms, words) => {
    expect(formatMs(ms)).toBe(words);
  });
});

describe('the traffic chart', () => {
  const series = [
    point('2026-11-24T12:00:00.000Z', 2, 1, 0),
    point('2026-11-24T13:00:00.000Z', 0, 0, 0),
    point('2026-11-24T14:00:00.000Z', 1, 2, 3),
  ];

  test('columns: bucket starts in seconds, then stacked tops from the tallest down', () => {
    expect(trafficColumns(series)).toEqual([
      [1_795_521_600, 1_795_525_200, 1_795_528_800],
      [3, 0, 6],
      [3, 0, 3],
      [2, 0, 1],
    ]);
  });

  test('the caption counts each outcome and names the busiest bucket', () => {
    const totals = { received: 9, success: 3, failed: 3, rejected: 3 };
    expect(trafficSummary({ window: '24h', totals, series, bucketSeconds: 3600 }, 'UTC')).toBe(
      '9 deliveries in the last 24 hours: 3 succeeded, 3 failed, 3 rejected. Busiest: 14:00 (6).',
    );
    const one = { received: 1, success: 1, failed: 0, rejected: 0 };
    expect(
      trafficSummary(
        { window: '1h', totals: one, series: [point('2026-11-24T12:05:00.000Z', 1, 0, 0)], bucketSeconds: 60 },
        'UTC',
      ),
    ).toBe('1 delivery in the last hour: 1 succeeded, 0 failed, 0 rejected. Busiest: 12:05 (1).');
    const none = { received: 0, success: 0, failed: 0, rejected: 0 };
    expect(trafficSummary({ window: '30d', totals: none, series: [], bucketSeconds: 86_400 })).toBe(
      '0 deliveries in the last 30 days.',
    );
  });

  test.each([
    [60, '12:05'],
    [3600, '12:05'],
    [6 * 3600, '24 Nov, 12:05'],
    [86_400, '24 Nov'],
  ])('a %i s bucket is labelled "%s"', (seconds, words) => {
    expect(bucketLabel('2026-11-24T12:05:00.000Z', seconds, 'UTC')).toBe(words);
  });

  test.each([
    ['2026-11-24T18:30:00Z', 3600, '18:30'],
    ['2026-11-24T18:30:00Z', 86_400, '18:30'],
    ['2026-11-24T18:30:00Z', 7 * 86_400, '24 Nov 18:30'],
    ['2026-11-24T00:00:00Z', 7 * 86_400, '24 Nov'],
  ])('a tick at %s over %i s reads "%s"', (iso, span, words) => {
    expect(timeTick(Date.parse(iso) / 1000, span, 'UTC')).toBe(words);
  });
});

describe('failures by reason', () => {
  const reasons = failureReasons({
    verificationFailures: [
      { reason: 'no_matching_signature', count: 2 },
      { reason: 'missing_header', count: 1 },
    ],
    rejections: [
      { reason: 'rate_limited', count: 5 },
      { reason: 'endpoint_inactive', count: 1 },
    ],
  });

  test('one list, most first; on a tie failures before rejections, then by reason', () => {
    expect(reasons).toEqual([
      { reason: 'rate_limited', kind: 'rejected', count: 5 },
      { reason: 'no_matching_signature', kind: 'failed', count: 2 },
      { reason: 'missing_header', kind: 'failed', count: 1 },
      { reason: 'endpoint_inactive', kind: 'rejected', count: 1 },
    ]);
  });

  test('columns: a category each, its count in the column of its kind only', () => {
    expect(failureColumns(reasons)).toEqual([
      [0, 1, 2, 3],
      [null, 2, 1, null],
      [5, null, null, 1],
    ]);
  });
});
