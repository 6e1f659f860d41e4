import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { resolveConfig } from '../../../server/config/config.ts';

describe('UI session lifetime and event stream cap settings', () => {
  test('defaults: sessions last 30 days, 20 event streams per account', () => {
    const c = resolveConfig({ dataDir: '/d' });
    assert.equal(c.sessionTtlMs, 30 * 86_400_000);
    assert.equal(c.maxEventStreamsPerAccount, 20);
  });

  test('environment beats config.json, which beats the defaults; the token lifetime stays its own', () => {
    const file = { sessionTtlMs: '12h', maxEventStreamsPerAccount: 5, tokenTtlMs: '1h' };
    const fromFile = resolveConfig({ dataDir: '/d', file });
    assert.equal(fromFile.sessionTtlMs, 12 * 3_600_000);
    assert.equal(fromFile.maxEventStreamsPerAccount, 5);
    assert.equal(fromFile.tokenTtlMs, 3_600_000);

    const env = { HOOKSCOPE_SESSION_TTL: '7d', HOOKSCOPE_MAX_EVENT_STREAMS: '2' };
    const fromEnv = resolveConfig({ dataDir: '/d', file, env });
    assert.equal(fromEnv.sessionTtlMs, 7 * 86_400_000);
    assert.equal(fromEnv.maxEventStreamsPerAccount, 2);
    assert.equal(resolveConfig({ dataDir: '/d', file: { sessionTtlMs: 90_000 } }).sessionTtlMs, 90_000);
  });

  test('bad values stop start-up naming the setting', () => {
    assert.throws(
      () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_SESSION_TTL: 'forever' } }),
      /HOOKSCOPE_SESSION_TTL must be a positive duration such as 10s, 15m, 12h or 30d/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_MAX_EVENT_STREAMS: '0' } }),
      /HOOKSCOPE_MAX_EVENT_STREAMS: must be a whole number from 1/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', file: { sessionTtlMs: '-1d' } }),
      /config\.json: sessionTtlMs: duration must be a positive duration such as 10s, 15m, 12h or 30d, at most 10 years \(got "-1d"\)\.$/,
    );
    assert.throws(
      () => resolveConfig({ dataDir: '/d', file: { maxEventStreamsPerAccount: 0 } }),
      /config.json: maxEventStreamsPerAccount: must be a whole number of at least 1\./,
    );
  });
});
