import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { CONFIG_DOC, resolveConfig } from '../../../server/config/config.ts';
import { ConfigError } from '../../../server/errors/config-error.ts';

const RULE = 'must be a comma-separated list of IP addresses or CIDR ranges, such as 127.0.0.1,10.0.0.0/8';

describe('trusted reverse proxies: --trust-proxy, HOOKSCOPE_TRUST_PROXY, config.json trustProxy', () => {
  test('default: none (the socket address is the client)', () => {
    assert.deepEqual(resolveConfig({ dataDir: '/d' }).trustProxy, []);
  });

  test('flags > environment > config.json; config.json takes a string or an array', () => {
    const file = { trustProxy: '10.0.0.0/8, 10.1.0.0/16' };
    const env = { HOOKSCOPE_TRUST_PROXY: '::1' };
    assert.deepEqual(resolveConfig({ dataDir: '/d', file }).trustProxy, ['10.0.0.0/8', '10.1.0.0/16']);
    assert.deepEqual(resolveConfig({ dataDir: '/d', file: { trustProxy: ['fd00::/8', '127.0.0.1'] } }).trustProxy, [
      'fd00::/8',
      '127.0.0.1',
    ]);
    assert.deepEqual(resolveConfig({ dataDir: '/d', file, env }).trustProxy, ['::1']);
    assert.deepEqual(
      resolveConfig({ dataDir: '/d', file, env, flags: { trustProxy: '127.0.0.1,192.168.0.0/16' } }).trustProxy,
      ['127.0.0.1', '192.168.0.0/16'],
    );
  });

  test('a bad value stops start-up naming the field and its source', () => {
    const error = (input: Parameters<typeof resolveConfig>[0]) => {
      try {
        resolveConfig(input);
      } catch (e) {
        assert.ok(e instanceof ConfigError, String(e));
        return { message: e.message, source: e.source };
      }
      assert.fail('nothing was thrown');
    };
    assert.deepEqual(error({ dataDir: '/d', flags: { trustProxy: '127.0.0.1,proxy.local' } }), {
      message: `--trust-proxy ${RULE} (got "proxy.local" in "127.0.0.1,proxy.local").`,
      source: '--trust-proxy',
    });
    assert.deepEqual(error({ dataDir: '/d', env: { HOOKSCOPE_TRUST_PROXY: '10.0.0.0/40' } }), {
      message: `HOOKSCOPE_TRUST_PROXY: ${RULE} (got "10.0.0.0/40" in "10.0.0.0/40").`,
      source: 'HOOKSCOPE_TRUST_PROXY',
    });
    assert.deepEqual(error({ dataDir: '/d', file: { trustProxy: ['10.0.0.1', 'nope'] } }), {
      message: `config.json: trustProxy: ${RULE} (got ["10.0.0.1","nope"]).`,
      source: 'config.json',
    });
  });

  test('documented with its flag and variable', () => {
    const doc = CONFIG_DOC.find((d) => d.key === 'trustProxy');
    assert.equal(doc?.flag, '--trust-proxy');
    assert.equal(doc?.env, 'HOOKSCOPE_TRUST_PROXY');
    assert.equal(doc?.default, '(none)');
  });
});
