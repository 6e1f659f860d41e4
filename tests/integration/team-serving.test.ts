import assert from 'node:assert/strict';
import { ManualClock } from '../../server/support/clock.ts';
import { resolveConfig } from '../../server/config/config.ts';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { rm } from 'node:fs/promises';

/**
 * `hookscope serve` as a team server (issue 23, "Serving a team"): the public
 * URL a reverse proxy answers at, the API's Host check, the Secure cookie, the
 * owner named by config and the sign-in rate limit, over real HTTP.
 */

const PUBLIC = 'https://hooks.example.test';

/** The public URL as `--public-url` gives it (normalised by resolveConfig), for engines built from overrides. */
const publicUrlOf = (flag: string): string | null =>
  resolveConfig({ dataDir: '/unused', flags: { publicUrl: flag } }).publicBaseUrl;

const redeem = (t: TestEngine, code: string, localAddress?: string) =>
  rawRequest(`${t.engine.apiUrl}/api/session`, {
    headers: [['content-type', 'application/json']],
    body: JSON.stringify({ code }),
    ...(localAddress ? { localAddress } : {}),
  });

describe('a public URL: receiving URLs, share links, sign-in links and the Host check', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ publicBaseUrl: publicUrlOf(`${PUBLIC}/`) });
  });
  after(() => t.stop());

  test('an endpoint is received at the public URL; its local URL stays the receiver', async () => {
    const r = await t.api('POST', '/api/endpoints', { body: { name: 'team', validationType: 'none' } });
    assert.equal(r.status, 201);
    const id = r.body.data.id as string;
    assert.equal(r.body.data.url, `${PUBLIC}/webhook/${id}`);
    assert.equal(r.body.data.publicUrl, `${PUBLIC}/webhook/${id}`);
    assert.equal(r.body.data.localUrl, `${t.engine.receiverUrl}/webhook/${id}`);
  });

  test('share links and sign-in links point at the public URL', async () => {
    const ep = await t.endpoint({ name: 'shared', validationType: 'none' });
    const logId = (await t.deliver(`/webhook/${ep}`, { body: 'hello' })).body.data.id as string;
    const share = (await t.api('POST', `/api/webhooks/${logId}/share`)).body.data;
    assert.match(share.url, /^https:\/\/hooks\.example\.test\/share\/[A-Za-z0-9_-]+$/);
    assert.equal(share.localOnly, false);
    const code = (await t.api('POST', '/api/session/codes')).body.data;
    assert.equal(code.url, `${PUBLIC}/#/sign-in/${code.code}`);
  });

  test('the API accepts the public host (with or without its default port) and still refuses any other', async () => {
    const version = (host: string) =>
      rawRequest(`${t.engine.apiUrl}/api/version`, {
        method: 'GET',
        headers: [
          ['Host', host],
          ['authorization', `Bearer ${t.token}`],
        ],
      });
    assert.equal((await version('hooks.example.test')).status, 200);
    assert.equal((await version('HOOKS.example.test:443')).status, 200);
    assert.equal((await version(new URL(t.engine.apiUrl).host)).status, 200);
    for (const other of [
      'evil.example',
      'hooks.example.test:8443',
      'sub.hooks.example.test',
      'hooks.example.test.evil',
    ]) {
      const r = await version(other);
      assert.equal(r.status, 403, other);
      assert.deepEqual(r.json().error.code, 'FORBIDDEN_HOST');
      assert.equal(
        r.json().error.message,
        `Host "${other}" is not allowed; use hooks.example.test, 127.0.0.1 or localhost.`,
      );
    }
  });

  test('the session cookie is Secure behind an https public URL', async () => {
    const { code } = (await t.api('POST', '/api/session/codes')).body.data;
    const r = await redeem(t, code);
    assert.equal(r.status, 200);
    const cookie = String(r.headers['set-cookie']);
    assert.match(
      cookie,
      /^hookscope_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    const out = await rawRequest(`${t.engine.apiUrl}/api/session`, { method: 'DELETE' });
    assert.equal(
      String(out.headers['set-cookie']),
      'hookscope_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict',
    );
  });
});

describe('no Secure cookie without an https public URL', () => {
  for (const [what, publicUrl] of [
    ['an http public URL', 'http://hooks.example.test'],
    ['no public URL', null],
  ] as const) {
    test(what, async () => {
      const t = await startTestEngine({ publicBaseUrl: publicUrl });
      try {
        const { code } = (await t.api('POST', '/api/session/codes')).body.data;
        const r = await redeem(t, code);
        assert.equal(r.status, 200);
        assert.match(
          String(r.headers['set-cookie']),
          /^hookscope_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Strict$/,
        );
        if (publicUrl === null) {
          const rebound = await rawRequest(`${t.engine.apiUrl}/api/version`, {
            method: 'GET',
            headers: [['Host', 'hooks.example.test']],
          });
          assert.equal(rebound.status, 403, 'without a public URL only loopback names pass');
        }
      } finally {
        await t.stop();
      }
    });
  }
});

describe('serve refuses a public URL together with the tunnel', () => {
  test('--public-url with --tunnel stops before anything starts, with one sentence', async () => {
    const dir = await makeTempDir();
    try {
      const r = await runCliInProcess(dir, ['serve', '--public-url', 'https://Hooks.Example.test/', '--tunnel']);
      assert.equal(r.code, 2);
      assert.equal(
        r.err,
        'hookscope: --public-url (https://hooks.example.test) and --tunnel cannot be used together: ' +
          "a team server's public URL is served by your own reverse proxy, the tunnel is for a laptop. " +
          'Use one of them (the tunnel is also on when config.json says tunnel.enabled).',
      );
      assert.equal(r.out, '');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the owner account is named by config', () => {
  let t: TestEngine;
  let alice: string;
  before(async () => {
    t = await startTestEngine({ owner: 'alice' });
    alice = await t.engine.issueToken('alice');
  });
  after(() => t.stop());

  test('the named owner may change engine-wide settings; the local account then may not', async () => {
    const byAlice = await t.api('PATCH', '/api/settings', { body: { rateLimit: { perSecond: 7 } }, token: alice });
    assert.equal(byAlice.status, 200, JSON.stringify(byAlice.body));
    assert.equal(byAlice.body.data.rateLimit.perSecond, 7);
    assert.equal(byAlice.body.data.canEdit, true);

    const byLocal = await t.api('PATCH', '/api/settings', { body: { rateLimit: { perSecond: 9 } } });
    assert.equal(byLocal.status, 403);
    assert.equal(byLocal.body.error.code, 'FORBIDDEN');
    assert.equal(
      byLocal.body.error.message,
      'Only the owner account of this install ("alice", set with --owner) may change engine-wide settings; other accounts may read them.',
    );
    assert.equal((await t.api('GET', '/api/settings')).body.data.canEdit, false);
    assert.equal((await t.api('GET', '/api/settings')).body.data.rateLimit.perSecond, 7);

    const tunnel = await t.api('POST', '/api/tunnel', { body: { enabled: false } });
    assert.equal(tunnel.status, 403);
    assert.match(tunnel.body.error.message, /^Only the owner account of this install \("alice", set with --owner\)/);
  });

  test('the session says who the owner is', async () => {
    assert.equal((await t.api('GET', '/api/session', { token: alice })).body.data.owner, true);
    assert.equal((await t.api('GET', '/api/session')).body.data.owner, false);
  });

  test("the serve banner's sign-in link is for the owner", async () => {
    const code = new URL(await t.engine.signInUrl()).hash.replace('#/sign-in/', '');
    const r = await redeem(t, code);
    assert.equal(r.status, 200);
    assert.equal(r.json().data.account.name, 'alice');
    assert.equal(r.json().data.owner, true);
  });
});

describe('sign-in attempts are rate-limited per source address', () => {
  const clock = new ManualClock(Date.parse('2026-11-24T09:00:00Z'));
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ signInRateLimit: { perMinute: 3 } }, { clock });
  });
  after(() => t.stop());

  test('past the limit one address gets 429 with Retry-After while another still passes; the next minute it passes again', async () => {
    const bogus = 'x'.repeat(43);
    for (let i = 0; i < 3; i++) assert.equal((await redeem(t, bogus, '127.0.0.1')).status, 401, `attempt ${i + 1}`);
    clock.advance(15_000);
    const limited = await redeem(t, bogus, '127.0.0.1');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '45');
    assert.deepEqual(limited.json(), {
      success: false,
      error: {
        code: 'SIGN_IN_RATE_LIMITED',
        message: 'Too many sign-in attempts from 127.0.0.1: at most 3 a minute. Try again in 45 s.',
        details: { retryAfterSeconds: 45 },
      },
    });
    // Minting links over HTTP counts against the same address.
    const mint = await t.api('POST', '/api/session/codes');
    assert.equal(mint.status, 429);
    assert.equal(mint.body.error.code, 'SIGN_IN_RATE_LIMITED');

    const { code } = await (async () => {
      clock.advance(45_000);
      return (await t.api('POST', '/api/session/codes')).body.data as { code: string };
    })();
    // The other loopback address has its own count: a good code still signs in from it.
    const other = await redeem(t, code, '127.0.0.2');
    assert.equal(other.status, 200);
    assert.equal(other.json().data.account.name, 'local');
    // 127.0.0.1's new minute: the mint above was its first attempt.
    assert.equal((await redeem(t, bogus, '127.0.0.1')).status, 401);
    assert.equal((await redeem(t, bogus, '127.0.0.1')).status, 401);
    assert.equal((await redeem(t, bogus, '127.0.0.1')).status, 429);
  });

  test('an API on loopback has no limit by default; off loopback it is 20 a minute', () => {
    assert.deepEqual(resolveConfig({ dataDir: '/d' }).signInRateLimit, { perMinute: 0 });
    assert.deepEqual(resolveConfig({ dataDir: '/d', flags: { apiHost: '0.0.0.0' } }).signInRateLimit, {
      perMinute: 20,
    });
    assert.deepEqual(
      resolveConfig({ dataDir: '/d', flags: { apiHost: '0.0.0.0' }, env: { HOOKSCOPE_SIGN_IN_RATE_LIMIT: '0' } })
        .signInRateLimit,
      { perMinute: 0 },
    );
    assert.deepEqual(resolveConfig({ dataDir: '/d', file: { signInRateLimit: { perMinute: 5 } } }).signInRateLimit, {
      perMinute: 5,
    });
  });
});
