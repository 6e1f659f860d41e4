import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import { resolveConfig } from '../../../server/config/config.ts';
import type { Random } from '../../../server/support/random.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import { backoffDelay } from '../../../server/tunnel/backoff.ts';
import {
  isPublicLocaltunnel,
  normalizeHost,
  randomSubdomain,
  SUBDOMAIN_PATTERN,
} from '../../../server/tunnel/subdomain.ts';

const fixed = (byte: number): Random => ({ bytes: (n) => Buffer.alloc(n, byte) });

test('backoff doubles from the minimum, is capped, and jitter stays within [half, all] of the step', () => {
  const low = fixed(0x00);
  const high = fixed(0xff);
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, 1000, 30_000, low)),
    [500, 1000, 2000, 4000, 8000, 15_000, 15_000],
  );
  assert.deepEqual(
    [1, 2, 3, 6, 50].map((n) => backoffDelay(n, 1000, 30_000, high)),
    [1000, 2000, 4000, 30_000, 30_000],
  );
  const r = new SeededRandom(3);
  for (let n = 1; n < 40; n++) {
    const d = backoffDelay(n, 50, 400, r);
    const step = Math.min(400, 50 * 2 ** (n - 1));
    assert.ok(d >= step / 2 && d <= step, `${n}: ${d}`);
  }
});

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
