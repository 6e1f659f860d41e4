import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../server/support/clock.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

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
      /^hookscope_session=[\w-]+\.[\w-]+\.[\w-]+; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Strict$/,
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
    rendererDir = await makeTempDir('hookscope-renderer-');
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
