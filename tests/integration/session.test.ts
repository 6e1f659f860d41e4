import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ManualClock } from '../../server/support/clock.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

// Removed once the file's tests are done.
const tempDir = tempDirs('hookscope-renderer-');

const MINUTE = 60_000;
const DAY = 86_400_000;

describe('signing in to the UI: one-time codes and the session cookie', () => {
  const clock = new ManualClock(Date.parse('2026-11-24T09:00:00Z'));
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ tokenTtlMs: 30 * DAY }, { clock });
  });
  after(() => t.stop());

  const newCode = async (token?: string): Promise<{ code: string; url: string; expiresAt: string }> => {
    const r = await t.api('POST', '/api/session/codes', { token });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.data;
  };
  const redeem = (code: string) =>
    fetch(`${t.engine.apiUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
  const cookieOf = (res: Response): string => (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const withCookie = (
    cookie: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ) =>
    fetch(`${t.engine.apiUrl}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  test('a code is a link to the UI at the API address, good for exactly 10 minutes', async () => {
    const { code, url, expiresAt } = await newCode();
    assert.match(code, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(url, `${t.engine.apiUrl}/#/sign-in/${code}`);
    assert.equal(expiresAt, '2026-11-24T09:10:00.000Z');
  });

  test('redeeming sets an HttpOnly, SameSite=Strict, host-only session cookie; a second use is refused', async () => {
    const { code } = await newCode();
    const res = await redeem(code);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      success: true,
      data: { account: { id: (await t.api('GET', '/api/session')).body.data.account.id, name: 'local' }, owner: true },
    });
    const setCookie = res.headers.get('set-cookie') ?? '';
    assert.match(
      setCookie,
      /^hookscope_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    assert.doesNotMatch(setCookie, /Domain=/i);

    const again = await redeem(code);
    assert.equal(again.status, 401);
    assert.deepEqual(((await again.json()) as { error: unknown }).error, {
      code: 'SIGN_IN_CODE_INVALID',
      message: 'This sign-in link has expired or was already used: run `npx hookscope open` for a new one.',
    });
  });

  test('a code expires after 10 minutes, to the millisecond', async () => {
    const fresh = await newCode();
    const stale = await newCode();
    clock.advance(10 * MINUTE - 1);
    assert.equal((await redeem(fresh.code)).status, 200);
    clock.advance(1);
    assert.equal((await redeem(stale.code)).status, 401);
  });

  test("a code signs in as the account that asked for it; only the owner's session says owner", async () => {
    const teammate = await t.engine.issueToken('teammate');
    const res = await redeem((await newCode(teammate)).code);
    assert.deepEqual(((await res.json()) as { data: { account: { name: string }; owner: boolean } }).data, {
      account: { id: (await t.api('GET', '/api/session', { token: teammate })).body.data.account.id, name: 'teammate' },
      owner: false,
    });
    // The teammate's cookie sees the teammate's endpoints, not the owner's.
    await t.endpoint({ name: 'owners-only', validationType: 'none' });
    const list = await withCookie(cookieOf(res), 'GET', '/api/endpoints');
    assert.deepEqual(((await list.json()) as { data: { total: number } }).data.total, 0);
  });

  test('the cookie reads freely; a change needs the x-hookscope-request header a cross-site page cannot send', async () => {
    const cookie = cookieOf(await redeem((await newCode()).code));
    assert.equal((await withCookie(cookie, 'GET', '/api/endpoints')).status, 200);
    const bare = await withCookie(cookie, 'POST', '/api/endpoints', {}, { name: 'csrf', validationType: 'none' });
    assert.equal(bare.status, 403);
    assert.equal(((await bare.json()) as { error: { code: string } }).error.code, 'REQUEST_HEADER_REQUIRED');
    const ok = await withCookie(
      cookie,
      'POST',
      '/api/endpoints',
      { 'x-hookscope-request': '1' },
      { name: 'from the UI', validationType: 'none' },
    );
    assert.equal(ok.status, 201);
    // Bearer tokens (the CLI) need no such header.
    assert.equal(
      (await t.api('POST', '/api/endpoints', { body: { name: 'cli', validationType: 'none' } })).status,
      201,
    );
  });

  test('a bad or expired session cookie is 401; signing out clears the cookie', async () => {
    assert.equal((await withCookie('hookscope_session=not.a.jwt', 'GET', '/api/endpoints')).status, 401);
    const cookie = cookieOf(await redeem((await newCode()).code));
    clock.advance(30 * DAY);
    const expired = await withCookie(cookie, 'GET', '/api/endpoints');
    assert.equal(expired.status, 401);
    assert.equal(((await expired.json()) as { error: { code: string } }).error.code, 'TOKEN_EXPIRED');
    const out = await withCookie(cookie, 'DELETE', '/api/session');
    assert.equal(out.status, 200);
    assert.equal(out.headers.get('set-cookie'), 'hookscope_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict');
  });
});

describe('the UI at the API address', () => {
  let t: TestEngine;
  let rendererDir: string;
  before(async () => {
    rendererDir = await tempDir();
    await mkdir(join(rendererDir, 'assets'));
    await writeFile(
      join(rendererDir, 'index.html'),
      '<!doctype html><title>ui</title><script type="module" src="./assets/app-1.js"></script>',
    );
    await writeFile(join(rendererDir, 'assets', 'app-1.js'), 'console.log(1)');
    t = await startTestEngine({}, { rendererDir });
  });
  after(() => t.stop());

  const CSP =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  test('serves index.html at / and hashed assets, each with the strict CSP; index is never cached', async () => {
    const index = await fetch(`${t.engine.apiUrl}/`);
    assert.equal(index.status, 200);
    assert.match(await index.text(), /<title>ui<\/title>/);
    assert.equal(index.headers.get('content-security-policy'), CSP);
    assert.equal(index.headers.get('cache-control'), 'no-store');
    assert.equal(index.headers.get('x-frame-options'), 'DENY');
    const asset = await fetch(`${t.engine.apiUrl}/assets/app-1.js`);
    assert.equal(asset.status, 200);
    assert.equal(await asset.text(), 'console.log(1)');
    assert.equal(asset.headers.get('content-security-policy'), CSP);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  });

  test('the API keeps its JSON 404s; other unknown paths are 404 too; the Host check covers the UI', async () => {
    const api = await fetch(`${t.engine.apiUrl}/api/nope`, { headers: { authorization: `Bearer ${t.token}` } });
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { error: { code: string } }).error.code, 'ROUTE_NOT_FOUND');
    assert.equal((await fetch(`${t.engine.apiUrl}/assets/missing.js`)).status, 404);
    const rebound = await rawRequest(`${t.engine.apiUrl}/`, { method: 'GET', headers: [['Host', 'evil.example']] });
    assert.equal(rebound.status, 403);
  });

  test('without a build, / says how to build it', async () => {
    const bare = await startTestEngine({}, { rendererDir: join(rendererDir, 'not-built') });
    try {
      const r = await fetch(`${bare.engine.apiUrl}/`);
      assert.equal(r.status, 503);
      assert.match(await r.text(), /Run <code>npm run build:renderer<\/code>/);
      assert.equal(r.headers.get('content-security-policy'), CSP);
    } finally {
      await bare.stop();
    }
  });
});

/** A browser's view of an engine: sign-in codes minted with a bearer token, redeemed and used by plain fetch. */
function browserOf(engine: () => TestEngine) {
  const api = (path: string) => `${engine().engine.apiUrl}${path}`;
  const newCode = async (token?: string): Promise<string> => {
    const r = await engine().api('POST', '/api/session/codes', { token });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.data.code as string;
  };
  const redeem = (code: string, cookie?: string, switchAccount?: boolean) =>
    fetch(api('/api/session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ code, switchAccount }),
    });
  const cookieOf = (res: Response): string => (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  /** A session cookie (`hookscope_session=...`) for the account of `token` (default: the owner). */
  const signIn = async (token?: string): Promise<string> => {
    const res = await redeem(await newCode(token));
    assert.equal(res.status, 200);
    return cookieOf(res);
  };
  /** A cookie-signed call, as the renderer makes it (`ui: true` adds x-hookscope-request) or as another page would. */
  const call = async (
    cookie: string,
    method: string,
    path: string,
    opts: { ui?: boolean; body?: unknown } = {},
  ): Promise<{ status: number; headers: Headers; body: any }> => {
    const res = await fetch(api(path), {
      method,
      headers: {
        cookie,
        ...(opts.ui ? { 'x-hookscope-request': '1' } : {}),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  return { newCode, redeem, cookieOf, signIn, call };
}

describe('sessions live on the engine: sign-out, switching accounts, duplicate cookies', () => {
  let t: TestEngine;
  const b = browserOf(() => t);
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  const INVALID = {
    code: 'SESSION_INVALID',
    message:
      'This session is not valid: it was signed out, or never existed on this engine. Sign in again with `npx hookscope open`.',
  };

  test('signing out ends the session: the same cookie replayed afterwards is 401; other sessions and tokens keep working', async () => {
    const cookie = await b.signIn();
    const other = await b.signIn();
    assert.equal((await b.call(cookie, 'GET', '/api/session')).status, 200);

    const out = await b.call(cookie, 'DELETE', '/api/session', { ui: true });
    assert.equal(out.status, 200);
    assert.deepEqual(out.body, { success: true, data: { signedOut: true } });
    assert.equal(out.headers.get('set-cookie'), 'hookscope_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict');

    // What an attacker who copied the cookie before the sign-out would send.
    for (const [method, path] of [
      ['GET', '/api/session'],
      ['GET', '/api/endpoints'],
    ] as const) {
      const replayed = await b.call(cookie, method, path, { ui: true });
      assert.equal(replayed.status, 401, `${method} ${path}`);
      assert.deepEqual(replayed.body, { success: false, error: INVALID });
    }
    const write = await b.call(cookie, 'POST', '/api/endpoints', {
      ui: true,
      body: { name: 'after sign-out', validationType: 'none' },
    });
    assert.equal(write.status, 401);
    assert.equal((await t.api('GET', '/api/endpoints')).body.data.total, 0, 'nothing was created');

    assert.equal((await b.call(other, 'GET', '/api/session')).status, 200, 'another session is untouched');
    assert.equal((await t.api('GET', '/api/session')).status, 200, 'bearer tokens are untouched');
  });

  test("another account's code, redeemed while signed in, is 409 naming both accounts and stays unspent until the switch is confirmed", async () => {
    const teammate = await t.engine.issueToken('teammate');
    const teammateId = (await t.api('GET', '/api/session', { token: teammate })).body.data.account.id as string;
    const localId = (await t.api('GET', '/api/session')).body.data.account.id as string;
    const code = await b.newCode(teammate);
    const mine = await b.signIn();
    for (let i = 0; i < 2; i++) {
      const asked = await b.redeem(code, mine);
      assert.equal(asked.status, 409);
      assert.equal(asked.headers.get('set-cookie'), null);
      assert.deepEqual(await asked.json(), {
        success: false,
        error: {
          code: 'ACCOUNT_SWITCH_UNCONFIRMED',
          message:
            'This sign-in link is for the account "teammate", and this browser is signed in as "local": ' +
            'send switchAccount: true to switch (the current session then ends).',
          details: { signedInAs: { id: localId, name: 'local' }, account: { id: teammateId, name: 'teammate' } },
        },
      });
    }
    assert.equal((await b.call(mine, 'GET', '/api/session')).status, 200, 'the current session is untouched');

    // Confirmed, the code (still unspent) signs in, the previous session ends, and the code is spent.
    const switched = await b.redeem(code, mine, true);
    assert.equal(switched.status, 200);
    const theirs = b.cookieOf(switched);
    assert.equal((await b.call(theirs, 'GET', '/api/session')).body.data.account.name, 'teammate');
    assert.deepEqual((await b.call(mine, 'GET', '/api/session')).body, { success: false, error: INVALID });
    assert.equal((await b.redeem(code)).status, 401, 'spent');

    // Same account: no question, the session is renewed. Ended or unknown cookies ask nothing either.
    const again = await b.redeem(await b.newCode(teammate), theirs);
    assert.equal(again.status, 200);
    assert.equal((await b.call(theirs, 'GET', '/api/session')).status, 401, 'the renewed session replaced it');
    assert.equal((await b.redeem(await b.newCode(), mine)).status, 200, 'a signed-out cookie is no session');

    // A code that does not work ends nothing.
    const kept = await b.signIn();
    assert.equal((await b.redeem('not-a-code', kept)).status, 401);
    assert.equal((await b.call(kept, 'GET', '/api/session')).status, 200);
  });

  test('two session cookies are refused whichever comes first, even when both are valid', async () => {
    const mine = await b.signIn();
    const teammates = await b.signIn(await t.engine.issueToken('teammate'));
    const stranger = 'hookscope_session=Tossed-by-a-page-on-another-port-0123456789ab';
    const sentence =
      'The request carries 2 hookscope_session cookies; a page on another port of this host may have set one. ' +
      "Clear this site's cookies, then sign in again with `npx hookscope open`.";
    for (const cookie of [
      `${mine}; ${stranger}`,
      `${stranger}; ${mine}`,
      `${mine}; ${teammates}`,
      `${teammates}; theme=dark; ${mine}`,
    ]) {
      for (const [method, path, body] of [
        ['GET', '/api/session', undefined],
        ['POST', '/api/endpoints', { name: 'x', validationType: 'none' }],
      ] as const) {
        const r = await b.call(cookie, method, path, { ui: true, body });
        assert.equal(r.status, 401, `${method} ${path} with ${cookie}`);
        assert.deepEqual(r.body, { success: false, error: { code: 'DUPLICATE_SESSION_COOKIE', message: sentence } });
      }
    }
    // One session cookie among other cookies is fine.
    const r = await b.call(`theme=dark; ${mine}; other=1`, 'GET', '/api/session');
    assert.equal(r.status, 200);
    assert.equal(r.body.data.account.name, 'local');
  });
});

describe('session lifetime (sessionTtlMs) and restarts', () => {
  const HOUR = 3_600_000;
  const clock = new ManualClock(Date.parse('2026-11-24T09:00:00Z'));
  let dataDir: string;
  let t: TestEngine;
  const b = browserOf(() => t);
  before(async () => {
    dataDir = await makeTempDir('hookscope-sessions-');
    t = await startTestEngine({ sessionTtlMs: HOUR, tokenTtlMs: 30 * DAY }, { clock }, dataDir);
  });
  after(async () => {
    await t.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('the cookie and the session last sessionTtlMs, to the millisecond, whatever the token lifetime', async () => {
    const res = await b.redeem(await b.newCode());
    assert.match(res.headers.get('set-cookie') ?? '', /; Max-Age=3600; /);
    const cookie = b.cookieOf(res);
    clock.advance(HOUR - 1);
    assert.equal((await b.call(cookie, 'GET', '/api/session')).status, 200);
    clock.advance(1);
    const expired = await b.call(cookie, 'GET', '/api/session');
    assert.equal(expired.status, 401);
    assert.deepEqual(expired.body.error, {
      code: 'TOKEN_EXPIRED',
      message: 'This session has expired: sign in again with `npx hookscope open`.',
    });
  });

  test('sessions survive a restart of the engine, and so does a sign-out', async () => {
    const kept = await b.signIn();
    const ended = await b.signIn();
    assert.equal((await b.call(ended, 'DELETE', '/api/session', { ui: true })).status, 200);
    await t.stop();
    t = await startTestEngine({ sessionTtlMs: HOUR }, { clock }, dataDir);
    const r = await b.call(kept, 'GET', '/api/session');
    assert.equal(r.status, 200);
    assert.equal(r.body.data.account.name, 'local');
    assert.equal((await b.call(ended, 'GET', '/api/session')).status, 401);
  });
});

describe('cookie-signed calls that make the engine act need x-hookscope-request, GETs included', () => {
  let t: TestEngine;
  let target: Server;
  let connections = 0;
  let targetUrl: string;
  let logId: string;
  const b = browserOf(() => t);

  before(async () => {
    // One server stands for both a replay target and the LLM: every connection to it is counted.
    target = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    target.on('connection', () => connections++);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    t = await startTestEngine({ remediation: { llm: { url: targetUrl, model: 'm', timeoutMs: 2000 } } });
    const ep = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: 'a-secret-123' });
    const r = await t.deliver(`/webhook/${ep}`, { body: '{"a":1}', headers: { 'x-webhook-signature': 'bad' } });
    assert.equal(r.status, 400);
    logId = r.body.error.details.logId as string;
  });
  after(async () => {
    await t.stop();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  const acting = () => [
    `/api/cli/diagnose/${logId}?target=${encodeURIComponent(`${targetUrl}/hook`)}`,
    `/api/cli/explain/${logId}?refresh=true`,
  ];

  test('without the header: 403 REQUEST_HEADER_REQUIRED and nothing leaves the engine', async () => {
    const cookie = await b.signIn();
    const refused = {
      code: 'REQUEST_HEADER_REQUIRED',
      message:
        'Requests that make the engine act must carry the x-hookscope-request header when they are signed in by cookie.',
    };
    for (const path of acting()) {
      const r = await b.call(cookie, 'GET', path);
      assert.equal(r.status, 403, path);
      assert.deepEqual(r.body.error, refused);
    }
    assert.equal(connections, 0, 'no request was sent to the target or the LLM');

    // An event stream holds one of the account's places: a page on another port must not take them.
    const ac = new AbortController();
    try {
      const stream = await fetch(`${t.engine.apiUrl}/api/events`, { headers: { cookie }, signal: ac.signal });
      assert.equal(stream.status, 403);
      assert.deepEqual(((await stream.json()) as { error: unknown }).error, refused);
    } finally {
      ac.abort();
    }
  });

  test('with the header (the renderer) or a bearer token (the CLI) they run; reads need no header', async () => {
    const cookie = await b.signIn();
    const [diagnose, explain] = acting();
    const before = connections;
    const d = await b.call(cookie, 'GET', diagnose!, { ui: true });
    assert.equal(d.status, 200);
    assert.equal(d.body.data.destination.http.status, 200);
    assert.ok(connections > before, 'diagnose reached the target');
    const afterDiagnose = connections;
    const e = await b.call(cookie, 'GET', explain!, { ui: true });
    assert.equal(e.status, 200);
    assert.ok(connections > afterDiagnose, 'explain called the LLM');
    assert.equal((await t.api('GET', diagnose!)).status, 200);

    const read = await b.call(cookie, 'GET', `/api/webhooks/logs/${logId}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.data.id, logId);
  });
});
