import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { resolveConfig } from '../../../server/config/config.ts';
import { isLoopbackHost, servingWarnings } from '../../../server/config/serving-config.ts';

describe('team server settings: hosts, public URL, owner', () => {
  test('defaults: loopback listeners, no public URL, the local account owns the install', () => {
    const c = resolveConfig({ dataDir: '/d' });
    assert.equal(c.apiHost, '127.0.0.1');
    assert.equal(c.receiverHost, '127.0.0.1');
    assert.equal(c.publicBaseUrl, null);
    assert.equal(c.owner, 'local');
  });

  test('flags > environment > config.json, for each of the four', () => {
    const file = { apiHost: '10.0.0.5', receiverHost: '10.0.0.6', publicUrl: 'https://file.example', owner: 'carol' };
    const env = {
      HOOKSCOPE_API_HOST: '0.0.0.0',
      HOOKSCOPE_RECEIVER_HOST: '::',
      HOOKSCOPE_PUBLIC_URL: 'https://env.example/',
      HOOKSCOPE_OWNER: 'bob',
    };
    const fromFile = resolveConfig({ dataDir: '/d', file });
    assert.deepEqual(
      [fromFile.apiHost, fromFile.receiverHost, fromFile.publicBaseUrl, fromFile.owner],
      ['10.0.0.5', '10.0.0.6', 'https://file.example', 'carol'],
    );
    const fromEnv = resolveConfig({ dataDir: '/d', file, env });
    assert.deepEqual(
      [fromEnv.apiHost, fromEnv.receiverHost, fromEnv.publicBaseUrl, fromEnv.owner],
      ['0.0.0.0', '::', 'https://env.example', 'bob'],
    );
    const flags = {
      apiHost: 'hookscope-1',
      receiverHost: '127.0.0.2',
      publicUrl: 'HTTPS://Flag.Example:443/',
      owner: 'alice',
    };
    const fromFlags = resolveConfig({ dataDir: '/d', file, env, flags });
    assert.deepEqual(
      [fromFlags.apiHost, fromFlags.receiverHost, fromFlags.publicBaseUrl, fromFlags.owner],
      ['hookscope-1', '127.0.0.2', 'https://flag.example', 'alice'],
    );
  });

  test('the public URL is an origin: a trailing slash and a default port go, a non-default port stays', () => {
    const url = (publicUrl: string) => resolveConfig({ dataDir: '/d', flags: { publicUrl } }).publicBaseUrl;
    assert.equal(url('https://hooks.example.com/'), 'https://hooks.example.com');
    assert.equal(url('http://hooks.example.com:80'), 'http://hooks.example.com');
    assert.equal(url('https://hooks.example.com:8443'), 'https://hooks.example.com:8443');
  });

  test('a public URL with a path, query, fragment, credentials or another scheme stops start-up naming its source', () => {
    const rule =
      'must be an absolute http:// or https:// URL with no path, query or fragment, such as https://hooks.example.com';
    for (const bad of [
      'https://hooks.example.com/hookscope',
      'https://hooks.example.com/?a=1',
      'https://hooks.example.com?',
      'https://hooks.example.com/#x',
      'https://user:pw@hooks.example.com',
      'ftp://hooks.example.com',
      'hooks.example.com',
    ]) {
      assert.throws(
        () => resolveConfig({ dataDir: '/d', flags: { publicUrl: bad } }),
        { name: 'ConfigError', message: `--public-url ${rule} (got "${bad}").` },
        bad,
      );
      assert.throws(
        () => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_PUBLIC_URL: bad } }),
        { message: `HOOKSCOPE_PUBLIC_URL: ${rule} (got "${bad}").` },
        bad,
      );
      assert.throws(
        () => resolveConfig({ dataDir: '/d', file: { publicUrl: bad } }),
        { message: `config.json: publicUrl: ${rule}.` },
        bad,
      );
    }
  });

  test('bad hosts and owner names stop start-up naming their source', () => {
    assert.throws(() => resolveConfig({ dataDir: '/d', flags: { apiHost: 'http://0.0.0.0' } }), {
      message: '--api-host must be an IP address (such as 0.0.0.0 or 127.0.0.1) or a host name (got "http://0.0.0.0").',
    });
    assert.throws(() => resolveConfig({ dataDir: '/d', env: { HOOKSCOPE_RECEIVER_HOST: '0.0.0.0:80' } }), {
      message:
        'HOOKSCOPE_RECEIVER_HOST: must be an IP address (such as 0.0.0.0 or 127.0.0.1) or a host name (got "0.0.0.0:80").',
    });
    assert.throws(() => resolveConfig({ dataDir: '/d', flags: { owner: 'al ice' } }), {
      message: '--owner must be 1 to 64 letters, digits or . _ @ - (got "al ice").',
    });
    assert.throws(() => resolveConfig({ dataDir: '/d', file: { owner: '' } }), {
      message: 'config.json: owner: must be 1 to 64 letters, digits or . _ @ -.',
    });
  });

  test('a public URL and the tunnel, from any source, are refused together', () => {
    const sentence = {
      name: 'ConfigError',
      message:
        /^--public-url \(https:\/\/hooks\.example\.com\) and --tunnel cannot be used together: .* Use one of them/,
    };
    assert.throws(
      () => resolveConfig({ dataDir: '/d', flags: { publicUrl: 'https://hooks.example.com', tunnel: true } }),
      sentence,
    );
    assert.throws(
      () =>
        resolveConfig({
          dataDir: '/d',
          env: { HOOKSCOPE_PUBLIC_URL: 'https://hooks.example.com' },
          file: { tunnel: { enabled: true } },
        }),
      sentence,
    );
    // --no-tunnel wins over config.json's tunnel.enabled, as for any flag.
    const c = resolveConfig({
      dataDir: '/d',
      flags: { publicUrl: 'https://hooks.example.com', tunnel: false },
      file: { tunnel: { enabled: true } },
    });
    assert.equal(c.tunnel.enabled, false);
  });
});

describe('serve warnings for listeners off loopback', () => {
  test('an API off loopback without a public URL: one line about the Host check', () => {
    assert.deepEqual(servingWarnings({ apiHost: '0.0.0.0', receiverHost: '127.0.0.1', publicBaseUrl: null }), [
      'Warning: the API listens on 0.0.0.0, but its Host check will refuse anything but loopback names ' +
        '(127.0.0.1, localhost, [::1]) until --public-url is given.',
    ]);
  });

  test('a receiver off loopback without a public URL: one line about the URLs it gives', () => {
    assert.deepEqual(servingWarnings({ apiHost: 'localhost', receiverHost: '::', publicBaseUrl: null }), [
      'Warning: the receiver listens on ::; receiving URLs and share links name that address until --public-url is given.',
    ]);
  });

  test('nothing with a public URL, or on loopback', () => {
    assert.deepEqual(
      servingWarnings({ apiHost: '0.0.0.0', receiverHost: '0.0.0.0', publicBaseUrl: 'https://hooks.example.com' }),
      [],
    );
    assert.deepEqual(servingWarnings({ apiHost: '127.0.0.1', receiverHost: '127.0.0.2', publicBaseUrl: null }), []);
  });

  test('loopback: 127.0.0.0/8, ::1 and localhost; not 0.0.0.0, :: or a LAN address', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', 'LOCALHOST'])
      assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '127.example.com', '::ffff:127.0.0.1x']) {
      assert.equal(isLoopbackHost(h), false, h);
    }
  });
});
