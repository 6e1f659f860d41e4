import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import { resolveConfig } from '../../../server/config/config.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import {
  isPublicLocaltunnel,
  normalizeHost,
  randomSubdomain,
  SUBDOMAIN_PATTERN,
} from '../../../server/tunnel/subdomain.ts';

test('random subdomains fit what localtunnel servers accept; hosts are normalised; the public service is recognised', () => {
  const r = new SeededRandom(5);
  const a = randomSubdomain(r);
  assert.match(a, SUBDOMAIN_PATTERN);
  assert.notEqual(randomSubdomain(r), a);
  assert.equal(normalizeHost('https://localtunnel.me/'), 'https://localtunnel.me');
  assert.equal(normalizeHost('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  assert.equal(isPublicLocaltunnel('https://localtunnel.me', 'https://abcd.loca.lt'), true);
  assert.equal(isPublicLocaltunnel('http://127.0.0.1:1234', 'http://abcd.localhost'), false);
});

test('tunnel configuration: flags > HOOKSCOPE_TUNNEL_HOST > config.json > defaults, with bad values named', () => {
  const base = { dataDir: '/tmp/x' };
  const d = resolveConfig(base);
  assert.equal(d.tunnel.enabled, false);
  assert.equal(d.tunnel.host, 'https://localtunnel.me');
  assert.equal(d.tunnel.subdomain, null);
  const file = { tunnel: { enabled: true, host: 'http://file.example', subdomain: 'fromfile1', backoffMinMs: '2s' } };
  const f = resolveConfig({ ...base, file });
  assert.equal(f.tunnel.enabled, true);
  assert.equal(f.tunnel.host, 'http://file.example');
  assert.equal(f.tunnel.backoffMinMs, 2000);
  const e = resolveConfig({ ...base, file, env: { HOOKSCOPE_TUNNEL_HOST: 'https://env.example' } });
  assert.equal(e.tunnel.host, 'https://env.example');
  const fl = resolveConfig({
    ...base,
    file,
    env: { HOOKSCOPE_TUNNEL_HOST: 'https://env.example' },
    flags: { tunnel: false, tunnelHost: 'https://flag.example', subdomain: 'fromflag1' },
  });
  assert.equal(fl.tunnel.enabled, false);
  assert.equal(fl.tunnel.host, 'https://flag.example');
  assert.equal(fl.tunnel.subdomain, 'fromflag1');
  assert.throws(() => resolveConfig({ ...base, env: { HOOKSCOPE_TUNNEL_HOST: 'ftp://x' } }), /HOOKSCOPE_TUNNEL_HOST/);
  assert.throws(() => resolveConfig({ ...base, flags: { tunnelHost: 'nope' } }), /--tunnel-host/);
  assert.throws(() => resolveConfig({ ...base, flags: { subdomain: 'UPPER' } }), /--subdomain/);
  assert.throws(() => resolveConfig({ ...base, file: { tunnel: { subdomain: 'a-b' } } }), /tunnel\.subdomain/);
  assert.throws(() => resolveConfig({ ...base, file: { tunnel: { colour: 'red' } } }), /tunnel/);
});
