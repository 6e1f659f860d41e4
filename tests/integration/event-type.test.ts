import assert from 'node:assert/strict';
import { sign as octokitSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { openSse, type SseStream } from '../helpers/sse-stream.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const STRIPE_SECRET = 'whsec_event_type_integration';
const GITHUB_SECRET = "It's a Secret to Everybody";

describe('event types: derived at capture, listed, filtered and sent live', () => {
  let t: TestEngine;
  let sse: SseStream;
  const ep: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const stripeEvent = (type: string) =>
    JSON.stringify({
      id: 'evt_1QxYzA2eZvKYlo2C0integration',
      object: 'event',
      api_version: '2024-06-20',
      created: 1_740_830_400,
      data: { object: { id: 'cs_test_1', object: 'checkout.session', amount_total: 4200, currency: 'eur' } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });

  before(async () => {
    t = await startTestEngine();
    sse = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    ep.stripe = await t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
    ep.github = await t.endpoint({ name: 'github', validationType: 'github', webhookSecret: GITHUB_SECRET });
    ep.none = await t.endpoint({ name: 'anything', validationType: 'none' });

    const stripe = async (type: string, secret: string) => {
      const payload = stripeEvent(type);
      return t.deliver(`/webhook/${ep.stripe}`, {
        body: payload,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
        },
      });
    };
    const github = async (endpoint: string, event: string, body: string) =>
      t.deliver(`/webhook/${endpoint}`, {
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/044aadd',
          'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
          'x-github-event': event,
          'x-github-hook-id': '292430182',
          'x-hub-signature-256': await octokitSign(GITHUB_SECRET, body),
        },
      });

    const paid = await stripe('checkout.session.completed', STRIPE_SECRET);
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    ids.paid = paid.body.data.id;
    const pr = await github(ep.github, 'pull_request', JSON.stringify({ action: 'opened', number: 7 }));
    assert.equal(pr.status, 200, JSON.stringify(pr.body));
    ids.pr = pr.body.data.id;
    // Verification failed, and the list still says which event it was.
    const forged = await stripe('invoice.payment_failed', 'whsec_not_the_secret');
    assert.equal(forged.status, 400);
    ids.forged = forged.body.error.details.logId;
    // Read from the request, not from the endpoint's type: a `none` endpoint names GitHub's event too.
    const push = await github(ep.none, 'push', JSON.stringify({ ref: 'refs/heads/main' }));
    ids.push = push.body.data.id;
    const plain = await t.deliver(`/webhook/${ep.none}`, { body: 'hello', headers: { 'content-type': 'text/plain' } });
    ids.plain = plain.body.data.id;
  });
  after(async () => {
    sse.close();
    await t.stop();
  });

  test('the list carries each delivery’s event type, newest first', async () => {
    const r = await t.api('GET', '/api/webhooks/logs');
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.data.logs.map((l: any) => [l.id, l.status, l.eventType]),
      [
        [ids.plain, 'success', null],
        [ids.push, 'success', 'push'],
        [ids.forged, 'failed', 'invoice.payment_failed'],
        [ids.pr, 'success', 'pull_request.opened'],
        [ids.paid, 'success', 'checkout.session.completed'],
      ],
    );
    const alt = await t.api('GET', `/api/webhooks?endpointId=${ep.github}`);
    assert.deepEqual(
      alt.body.data.webhooks.map((l: any) => l.eventType),
      ['pull_request.opened'],
    );
  });

  test('one log, and a pinned one, keep it', async () => {
    assert.equal(
      (await t.api('GET', `/api/webhooks/logs/${ids.paid}`)).body.data.eventType,
      'checkout.session.completed',
    );
    const pinned = await t.api('PATCH', `/api/webhooks/logs/${ids.pr}`, { body: { pinned: true } });
    assert.equal(pinned.body.data.eventType, 'pull_request.opened');
  });

  test('eventType filters the list by exact match, with the other filters', async () => {
    const list = async (q: string) => {
      const r = await t.api('GET', `/api/webhooks/logs?${q}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return [r.body.data.logs.map((l: any) => l.id), r.body.data.total];
    };
    assert.deepEqual(await list('eventType=pull_request.opened'), [[ids.pr], 1]);
    assert.deepEqual(await list('eventType=pull_request'), [[], 0]);
    assert.deepEqual(await list('eventType=invoice.payment_failed&status=failed'), [[ids.forged], 1]);
    assert.deepEqual(await list('eventType=invoice.payment_failed&status=success'), [[], 0]);
    assert.deepEqual(await list(`eventType=push&endpointId=${ep.github}`), [[], 0]);
    const bad = await t.api('GET', `/api/webhooks/logs?eventType=`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.message.includes('eventType'), true, bad.body.error.message);
  });

  test('log.created carries the event type as the list shows it', async () => {
    const created = await sse.waitFor((e) => e.event === 'log.created' && JSON.parse(e.data).id === ids.paid);
    assert.equal(JSON.parse(created.data).eventType, 'checkout.session.completed');
    const plain = await sse.waitFor((e) => e.event === 'log.created' && JSON.parse(e.data).id === ids.plain);
    assert.equal(JSON.parse(plain.data).eventType, null);
  });
});
