import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const STRIPE_SECRET = 'whsec_outgoing_test_secret';

/** POST /api/replay/:webhookLogId/outgoing: the request a replay would send, built by the engine and not sent. */
describe('POST /api/replay/{webhookLogId}/outgoing', () => {
  let t: TestEngine;
  let openEp: string;
  let stripeEp: string;

  before(async () => {
    t = await startTestEngine();
    openEp = await t.endpoint({ name: 'open', validationType: 'none' });
    stripeEp = await t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
  });
  after(async () => {
    await t.stop();
  });

  const outgoing = (logId: string, body: unknown, token?: string) =>
    t.api('POST', `/api/replay/${logId}/outgoing`, { body, token });

  test('the sub-path and query joined below targetUrl, the headers without hop-by-hop ones, the exact bytes; nothing recorded', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 0x80]);
    const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${openEp}/orders/42?x=1&y=2&x=3`, {
      headers: [
        ['Content-Type', 'application/octet-stream'],
        ['X-Custom-Case', 'Kept'],
        ['Keep-Alive', 'timeout=5'],
        ['TE', 'trailers'],
        ['X-Forwarded-Host', 'claimed.example'],
      ],
      body: bytes,
    });
    const logId = r.json().data.id as string;
    const o = await outgoing(logId, { targetUrl: 'http://localhost:3000/hooks?k=v' });
    assert.equal(o.status, 200, JSON.stringify(o.body));
    const data = o.body.data;
    assert.deepEqual(Object.keys(data), ['method', 'url', 'headers', 'body', 'bodyEncoding', 'edited']);
    assert.equal(data.edited, false);
    assert.equal(data.method, 'POST');
    assert.equal(data.url, 'http://localhost:3000/hooks/orders/42?k=v&x=1&x=3&y=2');
    assert.equal(data.bodyEncoding, 'base64');
    assert.deepEqual(Buffer.from(data.body, 'base64'), bytes);
    const headers = data.headers as [string, string][];
    const names = headers.map(([n]) => n.toLowerCase());
    for (const dropped of ['keep-alive', 'te', 'connection']) assert.ok(!names.includes(dropped), names.join(', '));
    assert.deepEqual(
      headers.find(([n]) => n.toLowerCase() === 'host'),
      ['Host', 'localhost:3000'],
    );
    assert.deepEqual(
      headers.find(([n]) => n === 'X-Custom-Case'),
      ['X-Custom-Case', 'Kept'],
    );
    assert.deepEqual(
      headers.find(([n]) => n.toLowerCase() === 'content-length'),
      ['Content-Length', '5'],
    );
    // The sender's forwarding claim is never passed on; the engine's own is.
    assert.deepEqual(
      headers.filter(([n]) => n.toLowerCase() === 'x-forwarded-host').map(([, v]) => v),
      [new URL(t.engine.receiverUrl).host],
    );
    const history = await t.api('GET', `/api/replay/${logId}/history`);
    assert.equal(history.body.data.total, 0);
  });

  test('resign: a fresh Stripe signature the SDK accepts; without it, the original header', async () => {
    const payload = '{"id":"evt_1","type":"invoice.paid"}';
    const stale = Math.floor(Date.now() / 1000) - 200;
    const original = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET, timestamp: stale });
    const d = await t.deliver(`/webhook/${stripeEp}`, {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': original },
    });
    const logId = d.body.data.id as string;
    const signature = (h: [string, string][]) => h.find(([n]) => n.toLowerCase() === 'stripe-signature')?.[1];

    const plain = await outgoing(logId, { targetUrl: 'http://localhost:3000' });
    assert.equal(signature(plain.body.data.headers), original);
    assert.equal(plain.body.data.bodyEncoding, 'utf8');
    assert.equal(plain.body.data.body, payload);

    const resigned = await outgoing(logId, { targetUrl: 'http://localhost:3000', resign: true });
    const fresh = signature(resigned.body.data.headers)!;
    assert.notEqual(fresh, original);
    // A 10 s tolerance: the original (200 s old) fails it, the fresh one passes.
    assert.throws(() => stripe.webhooks.constructEvent(payload, original, STRIPE_SECRET, 10));
    assert.equal(stripe.webhooks.constructEvent(payload, fresh, STRIPE_SECRET, 10).id, 'evt_1');
  });

  test("another account's log is 404 like a missing one; bad input is 400 naming the field", async () => {
    const d = await t.deliver(`/webhook/${openEp}`, { body: 'x' });
    const logId = d.body.data.id as string;
    const other = await t.engine.issueToken('someone-else');
    for (const [id, token] of [
      [logId, other],
      ['log_missing', undefined],
    ] as const) {
      const r = await outgoing(id, { targetUrl: 'http://localhost:3000' }, token);
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'LOG_NOT_FOUND');
    }
    const noTarget = await outgoing(logId, {});
    assert.equal(noTarget.status, 400);
    assert.match(noTarget.body.error.message, /targetUrl is required/);
    const ftp = await outgoing(logId, { targetUrl: 'ftp://localhost' });
    assert.equal(ftp.status, 400);
    assert.match(ftp.body.error.message, /targetUrl must use http or https/);
    const resign = await outgoing(logId, { targetUrl: 'http://localhost:3000', resign: 'yes' });
    assert.equal(resign.status, 400);
    assert.match(resign.body.error.message, /resign must be true or false/);
  });

  test('a sub-path that would leave the target path is refused (UNSAFE_SUB_PATH)', async () => {
    const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${openEp}/..%5cadmin`, { body: 'x' });
    const logId = r.json().data.id as string;
    const o = await outgoing(logId, { targetUrl: 'http://localhost:3000/hooks' });
    assert.equal(o.status, 400);
    assert.equal(o.body.error.code, 'UNSAFE_SUB_PATH');
  });
});
