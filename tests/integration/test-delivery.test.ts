import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRETS: Record<string, string | undefined> = {
  stripe: 'whsec_test_delivery_secret',
  github: 'github-test-delivery',
  shopify: 'shopify-test-delivery',
  slack: 'slack-test-delivery',
  standard_webhooks: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  hmac_sha256: 'hmac-test-delivery',
  none: undefined,
};

describe('POST /api/endpoints/:endpointId/test-delivery', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  const log = async (id: string) => (await t.api('GET', `/api/webhooks/logs/${id}`)).body.data;
  const create = (validationType: string, extra: Record<string, unknown> = {}) =>
    t.endpoint({ name: `test ${validationType}`, validationType, webhookSecret: SECRETS[validationType], ...extra });
  const testDelivery = (id: string, body?: unknown, token?: string) =>
    t.api('POST', `/api/endpoints/${id}/test-delivery`, { body, token });

  test('stripe: a Stripe-like event, signed so the stripe SDK accepts it, stored as success', async () => {
    const id = await create('stripe');
    const r = await testDelivery(id);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.status, 200);
    const l = await log(r.body.data.logId);
    assert.equal(l.endpointId, id);
    assert.equal(l.status, 'success');
    assert.deepEqual([l.verification.scheme, l.verification.result], ['stripe', 'valid']);
    const event = new Stripe('sk_test_x').webhooks.constructEvent(
      l.body,
      l.headers['stripe-signature'],
      SECRETS.stripe!,
    );
    assert.equal(event.type, 'payment_intent.succeeded');
    assert.match(event.id, /^evt_test_/);
  });

  test('standard_webhooks: signed so the standardwebhooks library accepts the stored delivery', async () => {
    const id = await create('standard_webhooks');
    const r = await testDelivery(id);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.status, 200);
    const l = await log(r.body.data.logId);
    assert.equal(l.status, 'success');
    assert.deepEqual([l.verification.scheme, l.verification.result], ['standard_webhooks', 'valid']);
    assert.match(l.headers['webhook-id'], /^msg_[0-9a-f]{32}$/);
    const payload = new Webhook(SECRETS.standard_webhooks!).verify(l.body, {
      'webhook-id': l.headers['webhook-id'],
      'webhook-timestamp': l.headers['webhook-timestamp'],
      'webhook-signature': l.headers['webhook-signature'],
    }) as { type: string };
    assert.equal(payload.type, 'hookscope.test');
  });

  test('every other scheme is accepted too; none is unsigned and skipped', async () => {
    for (const type of ['github', 'shopify', 'slack', 'hmac_sha256', 'none']) {
      const id = await create(type);
      const r = await testDelivery(id);
      assert.equal(r.status, 200, type);
      assert.equal(r.body.data.status, 200, type);
      const l = await log(r.body.data.logId);
      assert.equal(l.status, 'success', type);
      assert.equal(l.verification.result, type === 'none' ? 'skipped' : 'valid', type);
      assert.equal(l.contentType, 'application/json');
      JSON.parse(l.body);
    }
    const gh = await log((await testDelivery(await create('github'))).body.data.logId);
    assert.equal(gh.headers['x-github-event'], 'ping');
  });

  test('a caller payload (object or string) is sent instead of the sample', async () => {
    const id = await create('hmac_sha256', { signatureHeader: 'X-Acme-Signature' });
    const obj = await testDelivery(id, { payload: { hello: 'world' } });
    assert.equal(obj.body.data.status, 200);
    const lo = await log(obj.body.data.logId);
    assert.equal(lo.body, '{"hello":"world"}');
    assert.ok(lo.headers['x-acme-signature'], 'signed in the per-endpoint header');
    const str = await testDelivery(id, { payload: 'plain text body' });
    const ls = await log(str.body.data.logId);
    assert.equal(ls.body, 'plain text body');
    assert.match(ls.contentType, /^text\/plain/);
    const bad = await testDelivery(id, { payload: 42 });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /payload/);
  });

  test("an unknown endpoint and another account's endpoint are 404", async () => {
    assert.equal((await testDelivery('ep_doesnotexist')).status, 404);
    const bob = await t.engine.issueToken('bob');
    const bobs = await t.endpoint({ name: 'bob', validationType: 'none' }, bob);
    const r = await testDelivery(bobs);
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'ENDPOINT_NOT_FOUND');
    assert.equal((await testDelivery(bobs, undefined, bob)).status, 200);
  });

  test('an inactive endpoint is 409 with a sentence and nothing is stored', async () => {
    const id = await create('stripe');
    await t.api('PATCH', `/api/endpoints/${id}`, { body: { isActive: false } });
    const r = await testDelivery(id);
    assert.equal(r.status, 409);
    assert.match(r.body.error.message, /inactive/);
    assert.equal((await t.api('GET', `/api/webhooks/logs?endpointId=${id}`)).body.data.total, 0);
  });
});
