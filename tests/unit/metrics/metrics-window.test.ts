import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import {
  bucketIndex,
  bucketStart,
  metricsWindow,
  minuteOf,
  type MetricsWindowName,
} from '../../../server/metrics/metrics-window.ts';
import { nearestRank } from '../../../server/support/percentile.ts';

const at = (iso: string): number => Date.parse(iso);

describe('metrics windows', () => {
  test('each window has its bucket width and count, the last bucket holding now', () => {
    const now = at('2025-01-15T12:34:56.789Z');
    const expected: Record<MetricsWindowName, [number, number, string, string]> = {
      '1h': [60_000, 60, '2025-01-15T11:35:00.000Z', '2025-01-15T12:35:00.000Z'],
      '24h': [3_600_000, 24, '2025-01-14T13:00:00.000Z', '2025-01-15T13:00:00.000Z'],
      '7d': [21_600_000, 28, '2025-01-08T18:00:00.000Z', '2025-01-15T18:00:00.000Z'],
      '30d': [86_400_000, 30, '2024-12-17T00:00:00.000Z', '2025-01-16T00:00:00.000Z'],
    };
    for (const [name, [bucketMs, buckets, from, to]] of Object.entries(expected)) {
      const w = metricsWindow(name as MetricsWindowName, now);
      assert.equal(w.window, name);
      assert.equal(w.bucketMs, bucketMs, name);
      assert.equal(w.buckets, buckets, name);
      assert.equal(new Date(w.fromMs).toISOString(), from, name);
      assert.equal(new Date(w.toMs).toISOString(), to, name);
      assert.equal(w.toMs - w.fromMs, buckets * bucketMs, name);
      assert.equal(bucketIndex(w, now), buckets - 1, `${name}: now is in the last bucket`);
    }
  });

  test('a moment on a boundary opens the next bucket', () => {
    const boundary = at('2025-01-15T12:00:00.000Z');
    const w = metricsWindow('24h', boundary);
    assert.equal(new Date(w.fromMs).toISOString(), '2025-01-14T13:00:00.000Z');
    assert.equal(new Date(w.toMs).toISOString(), '2025-01-15T13:00:00.000Z');
    assert.equal(bucketIndex(w, boundary), 23);
    assert.equal(bucketIndex(w, boundary - 1), 22);
    const justBefore = metricsWindow('24h', boundary - 1);
    assert.equal(justBefore.toMs, boundary);
  });

  test('bucketIndex: inclusive start, exclusive end, -1 outside', () => {
    const w = metricsWindow('1h', at('2025-01-15T12:34:56.789Z'));
    assert.equal(bucketIndex(w, w.fromMs), 0);
    assert.equal(bucketIndex(w, w.fromMs - 1), -1);
    assert.equal(bucketIndex(w, w.fromMs + 59_999), 0);
    assert.equal(bucketIndex(w, w.fromMs + 60_000), 1);
    assert.equal(bucketIndex(w, w.toMs - 1), 59);
    assert.equal(bucketIndex(w, w.toMs), -1);
    assert.equal(bucketStart(w, 0), w.fromMs);
    assert.equal(bucketStart(w, 59), w.toMs - 60_000);
  });

  test('the same query within one bucket lands on the same boundaries', () => {
    const a = metricsWindow('7d', at('2025-01-15T12:00:00.000Z'));
    const b = metricsWindow('7d', at('2025-01-15T17:59:59.999Z'));
    assert.deepEqual(a, b);
    assert.notDeepEqual(metricsWindow('7d', at('2025-01-15T18:00:00.000Z')), a);
  });

  test('minuteOf floors to the minute', () => {
    assert.equal(minuteOf(at('2025-01-15T12:34:56.789Z')), at('2025-01-15T12:34:00.000Z'));
    assert.equal(minuteOf(at('2025-01-15T12:34:00.000Z')), at('2025-01-15T12:34:00.000Z'));
  });
});

describe('nearestRank', () => {
  test('is the smallest rank with at least p of the values at or below it', () => {
    assert.equal(nearestRank(0.5, 1), 1);
    assert.equal(nearestRank(0.95, 1), 1);
    assert.equal(nearestRank(0.5, 2), 1);
    assert.equal(nearestRank(0.5, 3), 2);
    assert.equal(nearestRank(0.5, 4), 2);
    assert.equal(nearestRank(0.95, 20), 19);
    assert.equal(nearestRank(0.95, 21), 20);
    assert.equal(nearestRank(0.95, 100), 95);
    assert.equal(nearestRank(0.07, 100), 7, 'float noise (0.07 * 100 = 7.000000000000001) does not push it up');
    assert.equal(nearestRank(1, 7), 7);
    assert.equal(nearestRank(0, 7), 1);
  });

  test('refuses an empty set', () => {
    assert.throws(() => nearestRank(0.5, 0), RangeError);
  });
});
