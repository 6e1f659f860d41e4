import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { SignJWT } from 'jose';
import { ManualClock } from '../../server/support/clock.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('authentication', () => {
  const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({}, { clock });
  });
  after(() => t.stop());

  const expect401 = async (authorization: string | null, code: string) => {
    const r = await t.api('GET', '/api/endpoints', {
      token: null,
      headers: authorization === null ? {} : { authorization },
    });
    assert.equal(r.status, 401, JSON.stringify(r.body));
    assert.equal(r.body.success, false);
    assert.equal(r.body.error.code, code);
    assert.equal(typeof r.body.error.message, 'string');
    assert.ok(!JSON.stringify(r.body).includes('at '), 'no stack trace');
  };

  test('a missing Authorization header is 401 MISSING_TOKEN', () => expect401(null, 'MISSING_TOKEN'));
  test('a malformed token is 401', () => expect401('Bearer not.a.jwt', 'INVALID_TOKEN'));
  test('another scheme is 401', () => expect401(`Basic ${Buffer.from('a:b').toString('base64')}`, 'INVALID_TOKEN'));

  test('an alg:none token is refused', async () => {
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: 'acct_x', iss: 'hookscope', aud: 'hookscope-api', exp: 9_999_999_999, iat: 1 })}.`;
    await expect401(`Bearer ${none}`, 'INVALID_TOKEN');
  });

  test('a token signed with another key is refused', async () => {
    const forged = await new SignJWT({ name: 'local' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('acct_x')
      .setIssuer('hookscope')
      .setAudience('hookscope-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new Uint8Array(32).fill(7));
    await expect401(`Bearer ${forged}`, 'INVALID_TOKEN');
  });

  test('an expired token is 401 TOKEN_EXPIRED (injected clock)', async () => {
    const short = await t.engine.issueToken('local', 10_000);
    const ok = await t.api('GET', '/api/endpoints', { token: short });
    assert.equal(ok.status, 200);
    clock.advance(11_000);
    await expect401(`Bearer ${short}`, 'TOKEN_EXPIRED');
  });

  test('version and the OpenAPI document need no token', async () => {
    const v = await t.api('GET', '/api/version', { token: null });
    assert.equal(v.status, 200);
    assert.equal(v.body.data.name, 'hookscope');
    const doc = await t.api('GET', '/api/openapi.json', { token: null });
    assert.equal(doc.status, 200);
    assert.ok(doc.body.openapi.startsWith('3.'));
  });

  test('a foreign Host header is 403 FORBIDDEN_HOST; loopback names pass', async () => {
    const port = new URL(t.engine.apiUrl).port;
    const evil = await rawRequest(`${t.engine.apiUrl}/api/version`, {
      method: 'GET',
      headers: [['Host', `evil.example:${port}`]],
    });
    assert.equal(evil.status, 403);
    assert.equal(evil.json().error.code, 'FORBIDDEN_HOST');
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      const ok = await rawRequest(`${t.engine.apiUrl}/api/version`, { method: 'GET', headers: [['Host', host]] });
      assert.equal(ok.status, 200, host);
    }
    const rebound = await rawRequest(`${t.engine.apiUrl}/api/version`, {
      method: 'GET',
      headers: [['Host', 'localhost.evil.example']],
    });
    assert.equal(rebound.status, 403);
  });
});

describe('account isolation', () => {
  let t: TestEngine;
  let other: string;
  let endpointId: string;
  let logId: string;
  before(async () => {
    t = await startTestEngine();
    other = await t.engine.issueToken('teammate');
    endpointId = await t.endpoint({ name: 'mine', validationType: 'none' });
    const d = await t.deliver(`/webhook/${endpointId}`, {
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    logId = d.body.data.id;
  });
  after(() => t.stop());

  test("another account's endpoint answers 404 like a missing one, for every operation", async () => {
    const missing = await t.api('GET', '/api/endpoints/ep_doesnotexist', { token: other });
    for (const [method, path, body] of [
      ['GET', `/api/endpoints/${endpointId}`, undefined],
      ['PATCH', `/api/endpoints/${endpointId}`, { name: 'stolen' }],
      ['DELETE', `/api/endpoints/${endpointId}`, undefined],
      ['POST', `/api/endpoints/${endpointId}/regenerate-secret`, undefined],
    ] as const) {
      const r = await t.api(method, path, { token: other, body });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.error.code, missing.body.error.code);
    }
    const mine = await t.api('GET', `/api/endpoints/${endpointId}`);
    assert.equal(mine.body.data.name, 'mine', 'unchanged by the other account');
  });

  test('another account sees none of the logs and cannot read one', async () => {
    const list = await t.api('GET', '/api/webhooks/logs', { token: other });
    assert.equal(list.body.data.total, 0);
    const filtered = await t.api('GET', `/api/webhooks/logs?endpointId=${endpointId}`, { token: other });
    assert.equal(filtered.body.data.total, 0);
    const one = await t.api('GET', `/api/webhooks/logs/${logId}`, { token: other });
    assert.equal(one.status, 404);
    const alt = await t.api('GET', `/api/webhooks?endpointId=${endpointId}`, { token: other });
    assert.equal(alt.body.data.total, 0);
    const endpoints = await t.api('GET', '/api/endpoints', { token: other });
    assert.deepEqual(endpoints.body.data, { endpoints: [], total: 0 });
    const own = await t.api('GET', `/api/webhooks/logs/${logId}`);
    assert.equal(own.status, 200);
  });
});
