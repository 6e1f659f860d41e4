import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, test } from '../../helpers/node-test.ts';
import { EVENT_TYPE_BODY_CAP, eventTypeOf } from '../../../server/logs/event-type.ts';
import { headerObject } from '../../../server/support/headers.ts';

const AT = new Date('2025-03-01T12:00:00Z');
const JSON_TYPE = 'application/json';

/** A delivery as the receiver hands it over: headers in the sender's case, the exact bytes. */
const delivery = (headers: [string, string][], body: string, contentType: string | null = JSON_TYPE) => ({
  headers: headerObject(contentType === null ? headers : [['Content-Type', contentType], ...headers]),
  contentType,
  body: Buffer.from(body),
  truncated: false,
});

/** A Stripe event as Stripe sends it (the Event object), signed by the stripe SDK's own test helper. */
function stripeDelivery(type: string) {
  const payload = JSON.stringify({
    id: 'evt_1QxYzA2eZvKYlo2C0example',
    object: 'event',
    api_version: '2024-06-20',
    created: AT.getTime() / 1000,
    data: {
      object: {
        id: 'cs_test_a1b2c3',
        object: 'checkout.session',
        amount_total: 4200,
        currency: 'eur',
        mode: 'payment',
        status: 'complete',
        // A nested `type` must not be taken for the event's.
        payment_method_types: ['card'],
        customer_details: { email: 'jenny@example.com', tax_exempt: 'none' },
      },
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: 'whsec_unit_event_type',
    timestamp: AT.getTime() / 1000,
  });
  return delivery(
    [
      ['User-Agent', 'Stripe/1.0 (+https://stripe.com/docs/webhooks)'],
      ['Stripe-Signature', signature],
    ],
    payload,
    'application/json; charset=utf-8',
  );
}

/** GitHub's documented delivery headers (docs: "Webhook events and payloads", delivery headers). */
function githubDelivery(event: string, body: string, contentType = JSON_TYPE) {
  const secret = "It's a Secret to Everybody";
  return delivery(
    [
      ['User-Agent', 'GitHub-Hookshot/044aadd'],
      ['X-GitHub-Delivery', '72d3162e-cc78-11e3-81ab-4c9367dc0958'],
      ['X-GitHub-Event', event],
      ['X-GitHub-Hook-ID', '292430182'],
      ['X-GitHub-Hook-Installation-Target-ID', '79929171'],
      ['X-GitHub-Hook-Installation-Target-Type', 'repository'],
      ['X-Hub-Signature-256', `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`],
    ],
    body,
    contentType,
  );
}

describe('eventTypeOf: the event a delivery names', () => {
  test('Stripe: the event object’s type, signed by the stripe SDK', () => {
    assert.equal(eventTypeOf(stripeDelivery('checkout.session.completed')), 'checkout.session.completed');
    assert.equal(eventTypeOf(stripeDelivery('invoice.payment_failed')), 'invoice.payment_failed');
  });

  test('GitHub: X-GitHub-Event with the body’s action, as @octokit/webhooks names handlers', () => {
    const pr = JSON.stringify({ action: 'opened', number: 2, pull_request: { id: 1, state: 'open' } });
    assert.equal(eventTypeOf(githubDelivery('pull_request', pr)), 'pull_request.opened');
    // push and ping carry no action: the header alone.
    assert.equal(eventTypeOf(githubDelivery('push', JSON.stringify({ ref: 'refs/heads/main' }))), 'push');
    assert.equal(eventTypeOf(githubDelivery('ping', JSON.stringify({ zen: 'Design for failure.' }))), 'ping');
    // The form content type (`payload=` + JSON) is not parsed: the header still names the event.
    const form = `payload=${encodeURIComponent(pr)}`;
    assert.equal(
      eventTypeOf(githubDelivery('pull_request', form, 'application/x-www-form-urlencoded')),
      'pull_request',
    );
    // A body type is never taken over GitHub's header.
    assert.equal(
      eventTypeOf(githubDelivery('issues', JSON.stringify({ type: 'x', action: 'closed' }))),
      'issues.closed',
    );
  });

  test('Standard Webhooks / Svix: the body’s type, signed by the standardwebhooks library', () => {
    const body = JSON.stringify({ type: 'invoice.paid', timestamp: AT.toISOString(), data: { id: 'inv_1' } });
    const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
    const headers: [string, string][] = [
      ['webhook-id', id],
      ['webhook-timestamp', String(AT.getTime() / 1000)],
      ['webhook-signature', new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').sign(id, AT, body)],
    ];
    assert.equal(eventTypeOf(delivery(headers, body)), 'invoice.paid');
  });

  test('Shopify: X-Shopify-Topic, without parsing the body', () => {
    const headers: [string, string][] = [
      ['X-Shopify-Topic', 'orders/create'],
      ['X-Shopify-Hmac-Sha256', 'XWmrwMey6OsLMeiZKwP4FppHH3cmAiiJJAweH5Jo4bM='],
      ['X-Shopify-Shop-Domain', 'example.myshopify.com'],
      ['X-Shopify-Webhook-Id', 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043'],
      ['X-Shopify-API-Version', '2025-01'],
    ];
    assert.equal(eventTypeOf(delivery(headers, '{"id":820982911946154508,"type":"not-the-topic"}')), 'orders/create');
    // Not JSON at all: the header is enough.
    assert.equal(eventTypeOf(delivery(headers, '<order/>', 'application/xml')), 'orders/create');
  });

  test('Slack: an event_callback names its inner event; other envelopes their own type', () => {
    const callback = JSON.stringify({
      token: 'XXYYZZ',
      team_id: 'T123ABC456',
      type: 'event_callback',
      event: { type: 'app_mention', user: 'U123ABC456', text: '<@U0LAN0Z89> is it everything?' },
      event_id: 'Ev123ABC456',
    });
    assert.equal(eventTypeOf(delivery([['X-Slack-Signature', 'v0=abc']], callback)), 'app_mention');
    const challenge = JSON.stringify({ token: 'x', challenge: '3eZbrw1a', type: 'url_verification' });
    assert.equal(eventTypeOf(delivery([], challenge)), 'url_verification');
    // An event_callback whose event has no type falls back to the envelope's.
    assert.equal(eventTypeOf(delivery([], '{"type":"event_callback","event":{}}')), 'event_callback');
  });

  test('generic: X-Event-Type, X-Webhook-Event, CloudEvents, then body type, event_type or event', () => {
    assert.equal(eventTypeOf(delivery([['X-Event-Type', 'user.created']], '{}')), 'user.created');
    assert.equal(eventTypeOf(delivery([['X-Webhook-Event', 'build.finished']], 'ok', 'text/plain')), 'build.finished');
    assert.equal(
      eventTypeOf(delivery([['ce-type', 'com.example.object.deleted.v2']], '{}')),
      'com.example.object.deleted.v2',
    );
    assert.equal(eventTypeOf(delivery([['X-Gitlab-Event', 'Push Hook']], '{}')), 'Push Hook');
    assert.equal(eventTypeOf(delivery([['X-Event-Key', 'repo:push']], '{}')), 'repo:push');
    assert.equal(eventTypeOf(delivery([], '{"event_type":"PAYMENT.CAPTURE.COMPLETED"}')), 'PAYMENT.CAPTURE.COMPLETED');
    assert.equal(eventTypeOf(delivery([], '{"event":"meeting.started","payload":{}}')), 'meeting.started');
    assert.equal(eventTypeOf(delivery([], '{"type":"  padded  "}', 'application/cloudevents+json')), 'padded');
    // A repeated header: its first value.
    assert.equal(
      eventTypeOf(
        delivery(
          [
            ['X-Event-Type', 'a'],
            ['X-Event-Type', 'b'],
          ],
          '',
        ),
      ),
      'a',
    );
  });

  test('nothing named, or nothing to trust: null', () => {
    assert.equal(eventTypeOf(delivery([], '{"n":1}')), null);
    assert.equal(eventTypeOf(delivery([], '')), null);
    // Not JSON by content type, not JSON, not an object.
    assert.equal(eventTypeOf(delivery([], '{"type":"x.y"}', 'text/plain')), null);
    assert.equal(eventTypeOf(delivery([], '{"type":"x.y"}', null)), null);
    assert.equal(eventTypeOf(delivery([], '{"type":"x.y"', JSON_TYPE)), null);
    assert.equal(eventTypeOf(delivery([], '[{"type":"x.y"}]')), null);
    // Not a short one-line string.
    assert.equal(eventTypeOf(delivery([], '{"type":{"name":"x"}}')), null);
    assert.equal(eventTypeOf(delivery([], '{"type":42,"event":""}')), null);
    assert.equal(eventTypeOf(delivery([], JSON.stringify({ type: 'x'.repeat(121) }))), null);
    assert.equal(eventTypeOf(delivery([], JSON.stringify({ type: 'x'.repeat(120) }))), 'x'.repeat(120));
    assert.equal(eventTypeOf(delivery([], JSON.stringify({ type: 'a\nb' }))), null);
    assert.equal(eventTypeOf(delivery([['X-Event-Type', '   ']], '{}')), null);
    // A GitHub action too long to add keeps the header's event.
    assert.equal(eventTypeOf(githubDelivery('issues', JSON.stringify({ action: 'y'.repeat(120) }))), 'issues');
  });

  test('a body over the cap, or cut short by a refusal, is not parsed', () => {
    const pad = (n: number) => JSON.stringify({ type: 'big.one', pad: 'x'.repeat(n) });
    const atCap = pad(EVENT_TYPE_BODY_CAP - pad(0).length);
    assert.equal(Buffer.byteLength(atCap), EVENT_TYPE_BODY_CAP);
    assert.equal(eventTypeOf(delivery([], atCap)), 'big.one');
    assert.equal(eventTypeOf(delivery([], pad(EVENT_TYPE_BODY_CAP - pad(0).length + 1))), null);
    assert.equal(eventTypeOf({ ...delivery([], '{"type":"x.y"}'), truncated: true }), null);
  });
});
