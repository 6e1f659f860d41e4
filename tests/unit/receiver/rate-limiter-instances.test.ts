import assert from 'node:assert/strict';
import { RateLimiter } from '../../../server/receiver/rate-limiter.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { describe, test } from '../../helpers/node-test.ts';

/** A limit shared between `n` live instances: each holds perSecond / n and burst / n. */
describe('RateLimiter shared between instances', () => {
  test('each instance holds its share; a change of the count applies at the next take', () => {
    const clock = new ManualClock(0);
    let live = 2;
    const rl = new RateLimiter(() => ({ perSecond: 10, burst: 20 }), clock, { liveCount: () => live });
    assert.equal(Array.from({ length: 12 }, () => rl.take('k')).filter((d) => d.allowed).length, 10);
    // One second at 5/s: 5 tokens.
    clock.advance(1000);
    assert.equal(Array.from({ length: 8 }, () => rl.take('k')).filter((d) => d.allowed).length, 5);
    // A third instance: the bucket is capped at 20/3 and refills at 10/3 per second.
    live = 3;
    clock.advance(60_000);
    assert.equal(Array.from({ length: 10 }, () => rl.take('k')).filter((d) => d.allowed).length, 6);
    // The 429 still names the whole limit, which holds across the instances together.
    assert.equal(rl.describe(), '10 deliveries per second (bursts of 20)');
  });

  test('a share under one token per second asks for the wait that brings one back', () => {
    const clock = new ManualClock(0);
    const rl = new RateLimiter(() => ({ perSecond: 1, burst: 4 }), clock, { liveCount: () => 4 });
    assert.equal(rl.take('k').allowed, true);
    // 0.25 tokens per second: an empty bucket needs 4 s.
    assert.deepEqual(rl.take('k'), { allowed: false, retryAfterSeconds: 4 });
    clock.advance(3000);
    assert.deepEqual(rl.take('k'), { allowed: false, retryAfterSeconds: 1 });
    clock.advance(1000);
    assert.equal(rl.take('k').allowed, true);
  });

  test('a burst smaller than the number of instances still leaves each one whole token', () => {
    const clock = new ManualClock(0);
    const rl = new RateLimiter(() => ({ perSecond: 1, burst: 1 }), clock, { liveCount: () => 2 });
    assert.equal(rl.take('k').allowed, true);
    assert.deepEqual(rl.take('k'), { allowed: false, retryAfterSeconds: 2 });
    clock.advance(2000);
    assert.equal(rl.take('k').allowed, true);
  });
});
