import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { ManualClock } from '../../server/support/clock.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-27T09:00:00Z');

const trade = (t: TestEngine, body: unknown, localAddress?: string) =>
  rawRequest(`${t.engine.apiUrl}/api/session/token`, {
    headers: [['content-type', 'application/json']],
    body: JSON.stringify(body),
    ...(localAddress ? { localAddress } : {}),
  });

const newCode = async (t: TestEngine, token?: string): Promise<string> => {
  const r = await t.api('POST', '/api/session/codes', { token });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.data.code as string;
};

const CODE_INVALID = {
  success: false,
  error: {
    code: 'SIGN_IN_CODE_INVALID',
    message: 'This sign-in link has expired or was already used: run `npx hookscope open` for a new one.',
  },
};

describe('POST /api/session/token: a sign-in code traded for a bearer token (`hookscope login`)', () => {
  const clock = new ManualClock(NOW);
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ tokenTtlMs: 2 * HOUR }, { clock });
  });
  after(() => t.stop());

  test('answers a token of the code’s account with the configured lifetime; the token works as a bearer token', async () => {
    const bobToken = await t.engine.issueToken('bob');
    const r = await trade(t, { code: await newCode(t, bobToken) });
    assert.equal(r.status, 200, r.body.toString());
    const { data } = r.json();
    assert.deepEqual(Object.keys(data).sort(), ['account', 'accountId', 'expiresAt', 'token']);
    assert.equal(data.account, 'bob');
    assert.equal(data.expiresAt, new Date(NOW + 2 * HOUR).toISOString());
    const claims = decodeJwt(data.token);
    assert.equal(claims.sub, data.accountId);
    assert.equal(claims.exp! - claims.iat!, (2 * HOUR) / 1000);
    const session = await t.api('GET', '/api/session', { token: data.token });
    assert.deepEqual(session.body.data.account, { id: data.accountId, name: 'bob' });
    assert.equal(r.headers['set-cookie'], undefined, 'a token, no cookie');
  });

  test('a code works once: the second trade, or a UI sign-in after it, is 401 SIGN_IN_CODE_INVALID', async () => {
    const code = await newCode(t);
    assert.equal((await trade(t, { code })).status, 200);
    const again = await trade(t, { code });
    assert.equal(again.status, 401);
    assert.deepEqual(again.json(), CODE_INVALID);
    const ui = await t.api('POST', '/api/session', { body: { code }, token: null });
    assert.equal(ui.status, 401);
    assert.equal(ui.body.error.code, 'SIGN_IN_CODE_INVALID');
  });

  test('a code spent by the UI sign-in no longer trades for a token', async () => {
    const code = await newCode(t);
    assert.equal((await t.api('POST', '/api/session', { body: { code }, token: null })).status, 200);
    assert.deepEqual((await trade(t, { code })).json(), CODE_INVALID);
  });

  test('an unknown code or an expired one is 401 SIGN_IN_CODE_INVALID', async () => {
    const unknown = await trade(t, { code: 'x'.repeat(43) });
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.json(), CODE_INVALID);
    const code = await newCode(t);
    clock.advance(10 * 60_000);
    assert.deepEqual((await trade(t, { code })).json(), CODE_INVALID);
  });

  test('no code, an empty one or an unknown field is 400 naming the field', async () => {
    const missing = await trade(t, {});
    assert.equal(missing.status, 400);
    assert.equal(missing.json().error.code, 'VALIDATION_ERROR');
    assert.match(missing.json().error.message, /\bcode\b/);
    const empty = await trade(t, { code: '' });
    assert.equal(empty.status, 400);
    assert.match(empty.json().error.message, /\bcode\b/);
    const extra = await trade(t, { code: 'x'.repeat(43), switchAccount: true });
    assert.equal(extra.status, 400);
    assert.match(extra.json().error.message, /switchAccount/);
  });
});

describe('POST /api/session/token counts against the sign-in rate limit', () => {
  const clock = new ManualClock(NOW);
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ signInRateLimit: { perMinute: 2 } }, { clock });
  });
  after(() => t.stop());

  test('with the UI’s sign-ins, per source address: past the limit 429 with Retry-After, another address passes', async () => {
    const bogus = 'x'.repeat(43);
    const ui = await rawRequest(`${t.engine.apiUrl}/api/session`, {
      headers: [['content-type', 'application/json']],
      body: JSON.stringify({ code: bogus }),
      localAddress: '127.0.0.1',
    });
    assert.equal(ui.status, 401);
    assert.equal((await trade(t, { code: bogus }, '127.0.0.1')).status, 401);
    clock.advance(20_000);
    const limited = await trade(t, { code: bogus }, '127.0.0.1');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '40');
    assert.equal(limited.json().error.code, 'SIGN_IN_RATE_LIMITED');
    const code = await (async () => {
      clock.advance(40_000);
      return newCode(t); // from 127.0.0.1: its new minute's first attempt
    })();
    assert.equal((await trade(t, { code }, '127.0.0.2')).status, 200);
  });
});
