import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import Stripe from 'stripe';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const STRIPE_SECRET = 'whsec_receiver_test_secret';
const HMAC_SECRET = 'generic-hmac-secret';

describe('receiver', () => {
  let t: TestEngine;
  let stripeEp: string;
  let hmacEp: string;
  let customHeaderEp: string;
  let openEp: string;
  before(async () => {
    t = await startTestEngine({ maxBodyBytes: 4096 });
    stripeEp = await t.endpoint({ name: 's', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
    hmacEp = await t.endpoint({ name: 'h', validationType: 'hmac_sha256', webhookSecret: HMAC_SECRET });
    customHeaderEp = await t.endpoint({
      name: 'c',
      validationType: 'hmac',
      webhookSecret: HMAC_SECRET,
      signatureHeader: 'X-Acme-Signature',
    });
    openEp = await t.endpoint({ name: 'o', validationType: 'none' });
  });
  after(() => t.stop());

  const log = async (id: string) => (await t.api('GET', `/api/webhooks/logs/${id}`)).body.data;
  const stripeHeader = (payload: string, secret = STRIPE_SECRET, timestamp = Math.floor(Date.now() / 1000)) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  describe('stripe', () => {
    const payload = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded' });

    test('a delivery signed by the stripe SDK is accepted and stored as success', async () => {
      const r = await t.deliver(`/webhook/${stripeEp}`, {
        body: payload,
        headers: { 'stripe-signature': stripeHeader(payload), 'content-type': 'application/json' },
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.success, true);
      assert.match(r.body.data.id, /^log_[0-9a-z]{26}$/);
      const l = await log(r.body.data.id);
      assert.equal(l.status, 'success');
      assert.deepEqual(
        { scheme: l.verification.scheme, result: l.verification.result, reason: l.verification.reason },
        { scheme: 'stripe', result: 'valid', reason: null },
      );
      assert.equal(l.body, payload);
    });

    test('a wrong secret is 400 with the stored log id, reason no_matching_signature', async () => {
      const r = await t.deliver(`/webhook/${stripeEp}`, {
        body: payload,
        headers: { 'stripe-signature': stripeHeader(payload, 'whsec_wrong') },
      });
      assert.equal(r.status, 400);
      assert.equal(r.body.error.code, 'SIGNATURE_VERIFICATION_FAILED');
      const l = await log(r.body.error.details.logId);
      assert.equal(l.status, 'failed');
      assert.equal(l.verification.reason, 'no_matching_signature');
      assert.equal(l.body, payload, 'a failed delivery is stored in full too');
    });

    test('a stale timestamp is timestamp_outside_tolerance', async () => {
      const r = await t.deliver(`/webhook/${stripeEp}`, {
        body: payload,
        headers: { 'stripe-signature': stripeHeader(payload, STRIPE_SECRET, Math.floor(Date.now() / 1000) - 301 - 5) },
      });
      assert.equal(r.status, 400);
      assert.equal((await log(r.body.error.details.logId)).verification.reason, 'timestamp_outside_tolerance');
    });

    test('several v1 signatures: any one matching is enough', async () => {
      const good = stripeHeader(payload);
      const ts = /t=(\d+)/.exec(good)![1];
      const v1 = /v1=([0-9a-f]+)/.exec(good)![1];
      const header = `t=${ts},v1=${'0'.repeat(64)},v1=${v1}`;
      const r = await t.deliver(`/webhook/${stripeEp}`, { body: payload, headers: { 'stripe-signature': header } });
      assert.equal(r.status, 200);
    });

    test('a per-endpoint toleranceSeconds widens or narrows the window', async () => {
      const wide = await t.endpoint({
        name: 'wide',
        validationType: 'stripe',
        webhookSecret: STRIPE_SECRET,
        toleranceSeconds: 900,
      });
      const narrow = await t.endpoint({
        name: 'narrow',
        validationType: 'stripe',
        webhookSecret: STRIPE_SECRET,
        toleranceSeconds: 60,
      });
      const now = Math.floor(Date.now() / 1000);
      const tenMinutesOld = stripeHeader(payload, STRIPE_SECRET, now - 600);
      assert.equal(
        (await t.deliver(`/webhook/${wide}`, { body: payload, headers: { 'stripe-signature': tenMinutesOld } })).status,
        200,
      );
      assert.equal(
        (await t.deliver(`/webhook/${stripeEp}`, { body: payload, headers: { 'stripe-signature': tenMinutesOld } }))
          .status,
        400,
      );
      const twoMinutesOld = stripeHeader(payload, STRIPE_SECRET, now - 120);
      const r = await t.deliver(`/webhook/${narrow}`, {
        body: payload,
        headers: { 'stripe-signature': twoMinutesOld },
      });
      assert.equal(r.status, 400);
      assert.equal((await log(r.body.error.details.logId)).verification.reason, 'timestamp_outside_tolerance');
      assert.equal(
        (await t.deliver(`/webhook/${stripeEp}`, { body: payload, headers: { 'stripe-signature': twoMinutesOld } }))
          .status,
        200,
      );
    });

    test('a missing header is missing_header', async () => {
      const r = await t.deliver(`/webhook/${stripeEp}`, { body: payload });
      assert.equal(r.status, 400);
      assert.equal((await log(r.body.error.details.logId)).verification.reason, 'missing_header');
    });
  });

  describe('hmac_sha256', () => {
    const body = '{"hello":"world"}';
    const mac = createHmac('sha256', HMAC_SECRET).update(body);
    const digest = mac.digest();

    for (const [form, value] of [
      ['hex', digest.toString('hex')],
      ['upper-case hex', digest.toString('hex').toUpperCase()],
      ['base64', digest.toString('base64')],
      ['sha256= prefix', `sha256=${digest.toString('hex')}`],
    ] as const) {
      test(`accepts the signature in ${form}`, async () => {
        const r = await t.deliver(`/webhook/${hmacEp}`, { body, headers: { 'x-webhook-signature': value } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      });
    }

    test('a signature over other bytes is refused', async () => {
      const r = await t.deliver(`/webhook/${hmacEp}`, {
        body: body + ' ',
        headers: { 'x-webhook-signature': digest.toString('hex') },
      });
      assert.equal(r.status, 400);
      assert.equal((await log(r.body.error.details.logId)).verification.reason, 'no_matching_signature');
    });

    test('the per-endpoint header name is used', async () => {
      const ok = await t.deliver(`/webhook/${customHeaderEp}`, {
        body,
        headers: { 'x-acme-signature': digest.toString('hex') },
      });
      assert.equal(ok.status, 200);
      const wrongHeader = await t.deliver(`/webhook/${customHeaderEp}`, {
        body,
        headers: { 'x-webhook-signature': digest.toString('hex') },
      });
      assert.equal(wrongHeader.status, 400);
      assert.equal((await log(wrongHeader.body.error.details.logId)).verification.reason, 'missing_header');
    });
  });

  describe('capture', () => {
    test('any method and sub-path; path below the endpoint, query as an object', async () => {
      for (const method of ['PUT', 'PATCH', 'DELETE', 'GET']) {
        const r = await t.deliver(`/webhook/${openEp}/orders/42?x=1&x=2&y=%20z`, {
          method,
          body: method === 'GET' ? undefined : 'b',
        });
        assert.equal(r.status, 200, method);
        const l = await log(r.body.data.id);
        assert.equal(l.method, method);
        assert.equal(l.path, '/orders/42');
        assert.deepEqual(l.query, { x: ['1', '2'], y: ' z' });
      }
      const root = await t.deliver(`/webhook/${openEp}`);
      assert.equal((await log(root.body.data.id)).path, '/');
    });

    test('a binary body is kept byte-exact and served as base64', async () => {
      const bytes = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x80]), randomBytes(2000)]);
      const r = await t.deliver(`/webhook/${openEp}`, {
        body: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      });
      const l = await log(r.body.data.id);
      assert.equal(l.bodyEncoding, 'base64');
      assert.ok(Buffer.from(l.body, 'base64').equals(bytes));
      assert.equal(l.size, bytes.length);
      assert.equal(l.contentType, 'application/octet-stream');
    });

    test('unusual whitespace and unicode are kept exactly', async () => {
      const body = ' {\r\n\t"a" :\t1 ,\n  "é" : "☃"\u00a0}  \n\n';
      const r = await t.deliver(`/webhook/${openEp}`, { body, headers: { 'content-type': 'application/json' } });
      const l = await log(r.body.data.id);
      assert.equal(l.bodyEncoding, 'utf8');
      assert.equal(l.body, body);
      assert.equal(l.size, Buffer.byteLength(body));
    });

    test('headers keep their order and case; repeated headers become arrays', async () => {
      const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${openEp}`, {
        headers: [
          ['X-Zeta', 'last-alpha'],
          ['x-Alpha', 'first'],
          ['X-Repeat', ['one', 'two']],
          ['Content-Type', 'text/plain'],
        ],
        body: 'hi',
      });
      assert.equal(r.status, 200);
      const l = await log(r.json().data.id);
      const names = l.rawHeaders.map(([n]: [string]) => n);
      assert.ok(names.indexOf('X-Zeta') < names.indexOf('x-Alpha'));
      assert.ok(names.includes('X-Repeat'));
      assert.deepEqual(l.headers['x-repeat'], ['one', 'two']);
      assert.equal(l.headers['x-alpha'], 'first');
      assert.equal(l.sourceIp, '127.0.0.1');
    });

    test('deliveries work on the API listener too', async () => {
      const r = await fetch(`${t.engine.apiUrl}/webhook/${openEp}`, { method: 'POST', body: 'via api' });
      assert.equal(r.status, 200);
    });
  });

  describe('refusals', () => {
    test('an unknown endpoint is 404 and stores nothing', async () => {
      const before = (await t.api('GET', '/api/webhooks/logs')).body.data.total;
      const r = await t.deliver('/webhook/ep_unknown', { body: 'x' });
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'ENDPOINT_NOT_FOUND');
      assert.equal((await t.deliver('/webhook/', { body: 'x' })).status, 404);
      assert.equal((await t.api('GET', '/api/webhooks/logs')).body.data.total, before);
    });

    test('a declared body over the limit is 413 at once, logged with the declared length and no bytes read', async () => {
      const big = Buffer.alloc(10_000, 'a');
      const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${openEp}`, { body: big });
      assert.equal(r.status, 413);
      const body = r.json();
      assert.equal(body.error.code, 'PAYLOAD_TOO_LARGE');
      const l = await log(body.error.details.logId);
      assert.equal(l.status, 'failed');
      assert.equal(l.verification.reason, 'payload_too_large');
      assert.equal(
        l.verification.detail,
        'Content-Length declared 10000 bytes, over the 4096-byte limit; refused before reading the body.',
      );
      // size is what arrived before the answer, never the declared value.
      assert.equal(l.size, 0);
      assert.equal(l.declaredSize, 10_000);
      assert.equal(l.truncated, false);
      assert.equal(l.body, '');
    });

    test('a chunked body that grows over the limit is 413 too, and the connection stays usable', async () => {
      const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${openEp}`, {
        body: Buffer.alloc(50_000, 'b'),
        chunked: true,
      });
      assert.equal(r.status, 413);
      const l = await log(r.json().error.details.logId);
      assert.equal(l.verification.reason, 'payload_too_large');
      assert.equal(l.declaredSize, null);
      // Reading stopped at the first chunk past the limit; the first bytes (the limit's worth) were kept.
      assert.ok(l.size > 4096 && l.size <= 50_000, `size ${l.size}`);
      assert.equal(l.truncated, true);
      assert.equal(l.body, 'b'.repeat(4096));
    });

    test('a body exactly at the limit is accepted', async () => {
      const r = await t.deliver(`/webhook/${openEp}`, { body: Buffer.alloc(4096, 'c') });
      assert.equal(r.status, 200);
      assert.equal((await log(r.body.data.id)).size, 4096);
    });

    test('the receiver listener serves no API and no other path', async () => {
      for (const path of ['/api/endpoints', '/api/version', '/api/openapi.json', '/', '/webhook']) {
        const r = await fetch(t.engine.receiverUrl + path, { headers: { authorization: `Bearer ${t.token}` } });
        assert.equal(r.status, 404, path);
        const body = (await r.json()) as { success: boolean };
        assert.equal(body.success, false);
      }
      const health = await fetch(`${t.engine.receiverUrl}/healthz`);
      assert.equal(health.status, 200);
    });
  });
});
