import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { DEFAULT_CONFIG, resolveConfig } from '../../../server/config/config.ts';
import { RateLimiter } from '../../../server/receiver/rate-limiter.ts';
import { ManualClock } from '../../../server/support/clock.ts';

describe('receiver and retention settings', () => {
  test('defaults: 1000/s with bursts of 2000, 10 s headers, 30 s request, 10 s idle, 64 MiB in flight, budgets per account', () => {
    const c = resolveConfig({ dataDir: '/d' });
    assert.deepEqual(c.receiver, {
      rateLimit: { perSecond: 1000, burst: 2000 },
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      bodyIdleTimeoutMs: 10_000,
      maxInFlightBodyBytes: 64 * 1024 * 1024,
    });
    assert.deepEqual(c.retention, { maxLogsPerAccount: 10_000, maxBodyBytesPerAccount: 512 * 1024 * 1024 });
  });

  test('environment beats config.json, which beats the defaults', () => {
    const file = {
      retention: { maxBodyBytesPerAccount: 300_000 },
      receiver: {
        rateLimit: { perSecond: 50, burst: 60 },
        headersTimeoutMs: '3s',
        requestTimeoutMs: 20_000,
        bodyIdleTimeoutMs: '2s',
        maxInFlightBodyBytes: 1_000_000,
      },
    };
    const fromFile = resolveConfig({ dataDir: '/d', file });
    assert.deepEqual(fromFile.receiver, {
      rateLimit: { perSecond: 50, burst: 60 },
      headersTimeoutMs: 3000,
      requestTimeoutMs: 20_000,
      bodyIdleTimeoutMs: 2000,
      maxInFlightBodyBytes: 1_000_000,
    });
    assert.equal(fromFile.retention.maxBodyBytesPerAccount, 300_000);

    const env = {
      HOOKSCOPE_RATE_LIMIT_PER_SECOND: '0',
      HOOKSCOPE_RATE_LIMIT_BURST: '5',
      HOOKSCOPE_RECEIVER_HEADERS_TIMEOUT: '1s',
      HOOKSCOPE_RECEIVER_REQUEST_TIMEOUT: '45s',
      HOOKSCOPE_RECEIVER_BODY_IDLE_TIMEOUT: '500ms',
      HOOKSCOPE_RECEIVER_MAX_INFLIGHT_BYTES: '2048',
      HOOKSCOPE_RETENTION_MAX_BODY_BYTES: '4096',
    };
    const fromEnv = resolveConfig({ dataDir: '/d', file, env });
    assert.deepEqual(fromEnv.receiver, {
      rateLimit: { perSecond: 0, burst: 5 },
      headersTimeoutMs: 1000,
      requestTimeoutMs: 45_000,
      bodyIdleTimeoutMs: 500,
      maxInFlightBodyBytes: 2048,
    });
    assert.equal(fromEnv.retention.maxBodyBytesPerAccount, 4096);
  });

  test('bad values stop start-up naming the setting', () => {
    assert.throws(
      () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_RATE_LIMIT_PER_SECOND: '-1' } }),
      /HOOKSCOPE_RATE_LIMIT_PER_SECOND: must be a whole number from 0/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_RATE_LIMIT_BURST: '0' } }),
      /HOOKSCOPE_RATE_LIMIT_BURST: must be a whole number from 1/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_RECEIVER_BODY_IDLE_TIMEOUT: 'soon' } }),
      /HOOKSCOPE_RECEIVER_BODY_IDLE_TIMEOUT must be a positive duration/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', file: { receiver: { rateLimit: { perSecond: 1.5 } } } }),
      /config.json: receiver.rateLimit.perSecond/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', file: { receiver: { maxInFlight: 1 } } }),
      /config.json: receiver maxInFlight/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', file: { retention: { maxBodyBytesTotal: 1 } } }),
      /config.json: retention maxBodyBytesTotal/,
    );
  });
});

describe('RateLimiter', () => {
  test('a full bucket of `burst`, refilled at `perSecond`, never above `burst`; Retry-After is one second', () => {
    const clock = new ManualClock(1_000_000);
    const rl = new RateLimiter(() => ({ perSecond: 10, burst: 3 }), clock);
    assert.deepEqual(
      [rl.take('a'), rl.take('a'), rl.take('a')].map((d) => d.allowed),
      [true, true, true],
    );
    assert.deepEqual(rl.take('a'), { allowed: false, retryAfterSeconds: 1 });
    // 99 ms at 10/s is 0.99 of a token: still refused; 1 ms more makes one.
    clock.advance(99);
    assert.equal(rl.take('a').allowed, false);
    clock.advance(1);
    assert.equal(rl.take('a').allowed, true);
    assert.equal(rl.take('a').allowed, false);
    // A long quiet spell refills to the burst, not beyond.
    clock.advance(60_000);
    assert.deepEqual(
      [1, 2, 3, 4].map(() => rl.take('a').allowed),
      [true, true, true, false],
    );
    // Each key has its own bucket; a forgotten key starts full again.
    assert.equal(rl.take('b').allowed, true);
    rl.forget('a');
    assert.equal(rl.take('a').allowed, true);
  });

  test('a clock that steps back adds nothing; perSecond 0 is off', () => {
    const clock = new ManualClock(5000);
    const rl = new RateLimiter(() => ({ perSecond: 1, burst: 1 }), clock);
    assert.equal(rl.take('k').allowed, true);
    clock.set(0);
    assert.equal(rl.take('k').allowed, false);
    clock.set(999);
    assert.equal(rl.take('k').allowed, false);
    const off = new RateLimiter(() => ({ perSecond: 0, burst: 1 }), clock);
    assert.equal(off.enabled, false);
    assert.deepEqual(
      Array.from({ length: 5 }, () => off.take('k').allowed),
      [true, true, true, true, true],
    );
    assert.equal(DEFAULT_CONFIG.receiver.rateLimit.perSecond, 1000);
  });

  test('a limit changed while running applies at the next take: a lower burst caps full buckets, 0 turns it off', () => {
    const clock = new ManualClock(0);
    let limit = { perSecond: 1000, burst: 2000 };
    const rl = new RateLimiter(() => limit, clock);
    assert.equal(rl.take('k').allowed, true); // the bucket now holds 1999 tokens
    limit = { perSecond: 1, burst: 2 };
    assert.deepEqual(
      [1, 2, 3].map(() => rl.take('k').allowed),
      [true, true, false],
    );
    assert.equal(rl.describe(), '1 deliveries per second (bursts of 2)');
    limit = { perSecond: 0, burst: 2 };
    assert.equal(rl.take('k').allowed, true);
  });
});
