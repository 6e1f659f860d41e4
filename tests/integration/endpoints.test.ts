import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'whsec_test_secret_value_123';

describe('endpoint management', () => {
  const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
  let t: TestEngine;
  const seen: string[] = []; // every response body, to prove no secret ever appears
  before(async () => {
    t = await startTestEngine({}, { clock });
  });
  after(() => t.stop());

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await t.api(method, path, { body });
    seen.push(JSON.stringify(r.body));
    return r;
  };

  test('create answers 201 with the endpoint object and no secret', async () => {
    const r = await call('POST', '/api/endpoints', {
      name: 'Stripe test',
      validationType: 'stripe',
      webhookSecret: SECRET,
      description: 'd',
    });
    assert.ok(r.status === 201 || r.status === 200);
    assert.equal(r.body.success, true);
    const e = r.body.data;
    assert.match(e.id, /^ep_[0-9a-z]+$/);
    assert.equal(e.url, `${t.engine.receiverUrl}/webhook/${e.id}`);
    assert.equal(e.localUrl, e.url);
    assert.equal(e.publicUrl, null);
    assert.equal(e.name, 'Stripe test');
    assert.equal(e.description, 'd');
    assert.equal(e.validationType, 'stripe');
    assert.equal(e.isActive, true);
    assert.equal(e.createdAt, '2026-11-23T10:00:00.000Z');
    assert.equal('webhookSecret' in e, false);
    assert.ok(!JSON.stringify(r.body).includes(SECRET));
  });

  test('validationType is matched case-insensitively with aliases and answered canonically', async () => {
    for (const [input, canonical] of [
      ['HMAC-SHA256', 'hmac_sha256'],
      ['hmac', 'hmac_sha256'],
      ['generic', 'hmac_sha256'],
      ['Stripe', 'stripe'],
      ['NONE', 'none'],
    ]) {
      const r = await call('POST', '/api/endpoints', {
        name: input,
        validationType: input,
        webhookSecret: 's3cret-value',
      });
      assert.equal(r.status, 201, `${input}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.data.validationType, canonical);
    }
  });

  test('every invalid create gets 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ validationType: 'none' }, 'name'],
      [{ name: '', validationType: 'none' }, 'name'],
      [{ name: '   ', validationType: 'none' }, 'name'],
      [{ name: 'x'.repeat(201), validationType: 'none' }, 'name'],
      [{ name: 42, validationType: 'none' }, 'name'],
      [{ name: 'a' }, 'validationType'],
      [{ name: 'a', validationType: 'paypal' }, 'validationType'],
      [{ name: 'a', validationType: 7 }, 'validationType'],
      [{ name: 'a', validationType: 'stripe' }, 'webhookSecret'],
      [{ name: 'a', validationType: 'hmac_sha256', webhookSecret: '' }, 'webhookSecret'],
      [{ name: 'a', validationType: 'none', forwardUrl: 'ftp://x' }, 'forwardUrl'],
      [{ name: 'a', validationType: 'none', forwardUrl: 'not a url' }, 'forwardUrl'],
      [
        { name: 'a', validationType: 'hmac', webhookSecret: 'abcdefgh', signatureHeader: 'bad header' },
        'signatureHeader',
      ],
      [{ name: 'a', validationType: 'stripe', webhookSecret: 'abc', signatureHeader: 'X-Sig' }, 'signatureHeader'],
      [{ name: 'a', validationType: 'stripe', webhookSecret: 'abc', toleranceSeconds: 0 }, 'toleranceSeconds'],
      [{ name: 'a', validationType: 'hmac', webhookSecret: 'abc', toleranceSeconds: 30 }, 'toleranceSeconds'],
      [[1, 2], 'body'],
      [{ name: 'a\u0000b', validationType: 'none' }, 'name'],
      [{ name: 'a', validationType: 'none', description: 'x\u0000' }, 'description'],
    ];
    for (const [body, field] of cases) {
      const r = await call('POST', '/api/endpoints', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.status}`);
      assert.equal(r.body.success, false);
      assert.ok(
        r.body.error.message.includes(field),
        `${JSON.stringify(body)}: "${r.body.error.message}" should name ${field}`,
      );
    }
    const unknown = await call('POST', '/api/endpoints', { name: 'a', validationType: 'paypal' });
    assert.match(unknown.body.error.message, /stripe, hmac_sha256, none/);
  });

  test('a body that is not JSON is 415, broken JSON is 400 INVALID_JSON', async () => {
    const text = await t.api('POST', '/api/endpoints', {
      body: 'name=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(text.status, 415);
    assert.equal(text.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    const broken = await t.api('POST', '/api/endpoints', {
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error.code, 'INVALID_JSON');
  });

  test('list answers { endpoints, total } newest first; get answers the object', async () => {
    const a = (await call('POST', '/api/endpoints', { name: 'first', validationType: 'none' })).body.data;
    clock.advance(1000);
    const b = (await call('POST', '/api/endpoints', { name: 'second', validationType: 'none' })).body.data;
    const list = await call('GET', '/api/endpoints');
    assert.equal(list.status, 200);
    assert.equal(list.body.data.total, list.body.data.endpoints.length);
    const ids = list.body.data.endpoints.map((e: { id: string }) => e.id);
    assert.ok(ids.indexOf(b.id) < ids.indexOf(a.id));
    const one = await call('GET', `/api/endpoints/${a.id}`);
    assert.deepEqual(one.body.data, a);
    const missing = await call('GET', '/api/endpoints/ep_nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'ENDPOINT_NOT_FOUND');
  });

  test('PATCH updates name, description and the active state (isActive or active, boolean-like)', async () => {
    const id = (await call('POST', '/api/endpoints', { name: 'p', validationType: 'none' })).body.data.id;
    const r1 = await call('PATCH', `/api/endpoints/${id}`, { name: 'renamed', description: 'now described' });
    assert.equal(r1.status, 200);
    assert.equal(r1.body.data.name, 'renamed');
    assert.equal(r1.body.data.description, 'now described');
    assert.equal((await call('PATCH', `/api/endpoints/${id}`, { isActive: false })).body.data.isActive, false);
    assert.equal((await call('PATCH', `/api/endpoints/${id}`, { active: true })).body.data.isActive, true);
    assert.equal((await call('PATCH', `/api/endpoints/${id}`, { active: 'false' })).body.data.isActive, false);
    assert.equal((await call('GET', `/api/endpoints/${id}`)).body.data.isActive, false);
    const none = await call('PATCH', `/api/endpoints/${id}`, { color: 'red' });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.code, 'NO_UPDATABLE_FIELDS');
    const empty = await call('PATCH', `/api/endpoints/${id}`, {});
    assert.equal(empty.status, 400);
    const bad = await call('PATCH', `/api/endpoints/${id}`, { isActive: 'maybe' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /isActive/);
    const clash = await call('PATCH', `/api/endpoints/${id}`, { isActive: true, active: false });
    assert.equal(clash.status, 400);
    const badName = await call('PATCH', `/api/endpoints/${id}`, { name: '' });
    assert.equal(badName.status, 400);
    assert.match(badName.body.error.message, /name/);
    // PostgreSQL's text cannot hold NUL: refused on every backend alike, with the field named.
    const nul = await call('PATCH', `/api/endpoints/${id}`, { description: 'a\u0000' });
    assert.equal(nul.status, 400);
    assert.equal(
      nul.body.error.message,
      'Invalid request body "description": description must not contain the NUL character (U+0000).',
    );
    assert.equal(
      (await call('GET', `/api/endpoints/${id}`)).body.data.name,
      'renamed',
      'a rejected PATCH changes nothing',
    );
  });

  test('an inactive endpoint answers 410 and stores nothing', async () => {
    const id = (await call('POST', '/api/endpoints', { name: 'off', validationType: 'none' })).body.data.id;
    await call('PATCH', `/api/endpoints/${id}`, { isActive: false });
    const d = await t.deliver(`/webhook/${id}`, { body: 'x' });
    assert.equal(d.status, 410);
    assert.equal(d.body.error.code, 'ENDPOINT_INACTIVE');
    const logs = await call('GET', `/api/webhooks/logs?endpointId=${id}`);
    assert.equal(logs.body.data.total, 0);
  });

  test('regenerate-secret returns the new secret once and keeps the previous one valid for the grace period', async () => {
    const oldSecret = 'first-secret-value';
    const id = (
      await call('POST', '/api/endpoints', { name: 'h', validationType: 'hmac_sha256', webhookSecret: oldSecret })
    ).body.data.id;
    const r = await t.api('POST', `/api/endpoints/${id}/regenerate-secret`);
    assert.equal(r.status, 200);
    const { webhookSecret, previousSecretExpiresAt } = r.body.data;
    assert.equal(r.body.data.id, id);
    assert.match(webhookSecret, /^[0-9a-f]{64}$/);
    assert.equal(previousSecretExpiresAt, new Date(clock.now() + 24 * 3600_000).toISOString());
    const after = await call('GET', `/api/endpoints/${id}`);
    assert.ok(!JSON.stringify(after.body).includes(webhookSecret));

    const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');
    const body = '{"event":"rolled"}';
    const withNew = await t.deliver(`/webhook/${id}`, {
      body,
      headers: { 'x-webhook-signature': sign(webhookSecret, body) },
    });
    assert.equal(withNew.status, 200);
    const withOld = await t.deliver(`/webhook/${id}`, {
      body,
      headers: { 'x-webhook-signature': sign(oldSecret, body) },
    });
    assert.equal(withOld.status, 200, 'the previous secret is still valid during the grace period');
    const log = await call('GET', `/api/webhooks/logs/${withOld.body.data.id}`);
    assert.equal(log.body.data.verification.matchedSecret, 'previous');

    clock.advance(24 * 3600_000 + 1);
    const late = await t.deliver(`/webhook/${id}`, { body, headers: { 'x-webhook-signature': sign(oldSecret, body) } });
    assert.equal(late.status, 400, 'after the grace period the previous secret is refused');

    const chosen = await t.api('POST', `/api/endpoints/${id}/regenerate-secret`, {
      body: { webhookSecret: 'my-own-secret-1' },
    });
    assert.equal(chosen.body.data.webhookSecret, 'my-own-secret-1');
    const tooShort = await t.api('POST', `/api/endpoints/${id}/regenerate-secret`, { body: { webhookSecret: 'x' } });
    assert.equal(tooShort.status, 400);
    assert.match(tooShort.body.error.message, /webhookSecret/);
  });

  test('regenerate-secret on a stripe or none endpoint is 409 with the reason', async () => {
    for (const type of ['stripe', 'none']) {
      const id = (await call('POST', '/api/endpoints', { name: type, validationType: type, webhookSecret: SECRET }))
        .body.data.id;
      const r = await call('POST', `/api/endpoints/${id}/regenerate-secret`);
      assert.equal(r.status, 409);
      assert.equal(r.body.error.code, 'SECRET_NOT_REGENERABLE');
      assert.ok(r.body.error.message.length > 10);
    }
  });

  test('delete answers { id, deleted: true } and removes the endpoint and its logs', async () => {
    const id = (await call('POST', '/api/endpoints', { name: 'gone', validationType: 'none' })).body.data.id;
    const d1 = await t.deliver(`/webhook/${id}`, { body: 'one' });
    await t.deliver(`/webhook/${id}/sub`, { body: 'two' });
    assert.equal((await call('GET', `/api/webhooks/logs?endpointId=${id}`)).body.data.total, 2);
    const del = await call('DELETE', `/api/endpoints/${id}`);
    assert.deepEqual(del.body, { success: true, data: { id, deleted: true } });
    assert.equal((await call('GET', `/api/endpoints/${id}`)).status, 404);
    assert.equal((await call('GET', `/api/webhooks/logs?endpointId=${id}`)).body.data.total, 0);
    assert.equal((await call('GET', `/api/webhooks/logs/${d1.body.data.id}`)).status, 404);
    assert.equal((await t.deliver(`/webhook/${id}`, { body: 'three' })).status, 404);
    assert.equal((await call('DELETE', `/api/endpoints/${id}`)).status, 404);
  });

  test('no endpoint response ever contained a secret', () => {
    for (const s of seen) {
      assert.ok(!s.includes(SECRET), s);
      assert.ok(!s.includes('first-secret-value'), s);
      // Only regenerate-secret answers a secret value (its answer carries previousSecretExpiresAt);
      // an error naming the field is fine.
      assert.ok(!/"webhookSecret":"/.test(s) || s.includes('"previousSecretExpiresAt"'), s);
    }
  });

  test('unknown API routes answer a 404 envelope', async () => {
    const r = await call('GET', '/api/nothing-here');
    assert.equal(r.status, 404);
    assert.equal(r.body.success, false);
    const viaRaw = await rawRequest(`${t.engine.apiUrl}/api/endpoints`, {
      method: 'PUT',
      headers: [['Authorization', `Bearer ${t.token}`]],
    });
    assert.equal(viaRaw.status, 404);
  });
});
