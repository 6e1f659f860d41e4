import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { backoffDelay } from '../../../server/support/backoff.ts';
import type { Random } from '../../../server/support/random.ts';

/** A Random whose every draw is these four bytes, recording how many bytes each draw asked for. */
function fixed(hex: string): Random & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    bytes: (n) => {
      asked.push(n);
      return Buffer.from(hex, 'hex');
    },
  };
}

const bounds = { minMs: 1000, maxMs: 30_000 };
const failures = [1, 2, 3, 4, 5, 6, 7, 50];

describe('backoffDelay', () => {
  test('with no jitter drawn, half the step: doubling from min, capped at max', () => {
    assert.deepEqual(
      failures.map((n) => backoffDelay(n, bounds, fixed('00000000'))),
      [500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000],
    );
  });

  test('with a fraction of one half, three quarters of the step', () => {
    assert.deepEqual(
      failures.map((n) => backoffDelay(n, bounds, fixed('80000000'))),
      [750, 1500, 3000, 6000, 12_000, 22_500, 22_500, 22_500],
    );
  });

  test('with the largest fraction, the whole step (rounded)', () => {
    assert.deepEqual(
      failures.map((n) => backoffDelay(n, bounds, fixed('ffffffff'))),
      [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000],
    );
  });

  test('a fraction in between is rounded to the millisecond', () => {
    // 0x40000000 / 2^32 = 0.25: 50 + 50 * 0.25 = 62.5, rounded up.
    assert.equal(backoffDelay(1, { minMs: 100, maxMs: 1000 }, fixed('40000000')), 63);
    // 0x20000000 / 2^32 = 0.125: 1500 + 1500 * 0.125 = 1687.5.
    assert.equal(backoffDelay(2, { minMs: 1500, maxMs: 60_000 }, fixed('20000000')), 1688);
  });

  test('zero or negative failures count as the first; the exponent stops at 30 so the step never overflows', () => {
    assert.equal(backoffDelay(0, bounds, fixed('00000000')), 500);
    assert.equal(backoffDelay(-3, bounds, fixed('00000000')), 500);
    const unbounded = { minMs: 1, maxMs: Number.MAX_VALUE };
    assert.equal(backoffDelay(31, unbounded, fixed('00000000')), 2 ** 29);
    assert.equal(backoffDelay(1000, unbounded, fixed('00000000')), 2 ** 29);
  });

  test('draws exactly one 4-byte fraction per delay', () => {
    const r = fixed('00000000');
    backoffDelay(3, bounds, r);
    backoffDelay(9, bounds, r);
    assert.deepEqual(r.asked, [4, 4]);
  });
});
