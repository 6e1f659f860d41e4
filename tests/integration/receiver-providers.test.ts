import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { sign as octokitSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const GITHUB_SECRET = "It's a Secret to Everybody";
const SHOPIFY_SECRET = 'shpss_integration_secret';
const SLACK_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const SW_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const nowSeconds = () => Math.floor(Date.now() / 1000);
// Shopify and Slack publish the algorithm, not a signing library: computed here as documented.
const shopifySign = (body: string, secret = SHOPIFY_SECRET) =>
  createHmac('sha256', secret).update(body, 'utf8').digest('base64');
const slackHeaders = (body: string, secret = SLACK_SECRET, ts = nowSeconds()) => ({
  'x-slack-request-timestamp': String(ts),
  'x-slack-signature': 'v0=' + createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex'),
});
const swHeaders = (body: string, secret = SW_SECRET, at = new Date(), id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W') => ({
  'webhook-id': id,
  'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  'webhook-signature': new Webhook(secret).sign(id, at, body),
});

describe('receiver: github, shopify, slack, standard_webhooks', () => {
  let t: TestEngine;
  const ep: Record<string, string> = {};
  before(async () => {
    t = await startTestEngine();
    ep.github = await t.endpoint({ name: 'gh', validationType: 'github', webhookSecret: GITHUB_SECRET });
    ep.shopify = await t.endpoint({ name: 'shop', validationType: 'shopify', webhookSecret: SHOPIFY_SECRET });
    ep.slack = await t.endpoint({ name: 'slack', validationType: 'slack', webhookSecret: SLACK_SECRET });
    ep.sw = await t.endpoint({ name: 'sw', validationType: 'standard_webhooks', webhookSecret: SW_SECRET });
  });
  after(() => t.stop());

  const log = async (id: string) => (await t.api('GET', `/api/webhooks/logs/${id}`)).body.data;
  /** Delivers and returns the stored log; asserts the status the sender saw. */
  const deliver = async (endpoint: string, body: string, headers: Record<string, string>, expectStatus: number) => {
    const r = await t.deliver(`/webhook/${endpoint}`, {
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    assert.equal(r.status, expectStatus, JSON.stringify(r.body));
    return log(expectStatus === 200 ? r.body.data.id : r.body.error.details.logId);
  };
  const reasonOf = async (endpoint: string, body: string, headers: Record<string, string>) => {
    const l = await deliver(endpoint, body, headers, 400);
    assert.equal(l.status, 'failed');
    assert.ok(l.verification.detail.length > 10, 'a human detail sentence');
    return l.verification.reason as string;
  };

  describe('github', () => {
    const body = JSON.stringify({ zen: 'Design for failure.', hook_id: 1, action: 'opened' });

    test('a delivery signed by @octokit/webhooks-methods is accepted', async () => {
      const l = await deliver(
        ep.github!,
        body,
        { 'x-hub-signature-256': await octokitSign(GITHUB_SECRET, body), 'x-github-event': 'ping' },
        200,
      );
      assert.equal(l.status, 'success');
      assert.deepEqual([l.verification.scheme, l.verification.result], ['github', 'valid']);
    });

    test('a wrong secret is no_matching_signature', async () => {
      assert.equal(
        await reasonOf(ep.github!, body, { 'x-hub-signature-256': await octokitSign('not the secret', body) }),
        'no_matching_signature',
      );
    });

    test('a missing header is missing_header; only the legacy sha1 header says so', async () => {
      assert.equal(await reasonOf(ep.github!, body, {}), 'missing_header');
      const sha1 = 'sha1=' + createHmac('sha1', GITHUB_SECRET).update(body).digest('hex');
      const l = await deliver(ep.github!, body, { 'x-hub-signature': sha1 }, 400);
      assert.equal(l.verification.reason, 'missing_header');
      assert.match(l.verification.detail, /only the legacy X-Hub-Signature \(SHA-1\) header came/i);
      assert.match(l.verification.detail, /X-Hub-Signature-256/);
    });

    test('a malformed header is malformed_header', async () => {
      assert.equal(await reasonOf(ep.github!, body, { 'x-hub-signature-256': 'sha1=abc' }), 'malformed_header');
    });
  });

  describe('shopify', () => {
    const body = JSON.stringify({ id: 820982911946154500, email: 'jon@example.com', total_price: '12.00' });

    test('a delivery signed as Shopify documents is accepted', async () => {
      const l = await deliver(
        ep.shopify!,
        body,
        { 'x-shopify-hmac-sha256': shopifySign(body), 'x-shopify-topic': 'orders/create' },
        200,
      );
      assert.equal(l.status, 'success');
      assert.deepEqual([l.verification.scheme, l.verification.result], ['shopify', 'valid']);
    });

    test('wrong secret, missing header, malformed header', async () => {
      assert.equal(
        await reasonOf(ep.shopify!, body, { 'x-shopify-hmac-sha256': shopifySign(body, 'other') }),
        'no_matching_signature',
      );
      assert.equal(await reasonOf(ep.shopify!, body, {}), 'missing_header');
      const hex = createHmac('sha256', SHOPIFY_SECRET).update(body).digest('hex');
      assert.equal(await reasonOf(ep.shopify!, body, { 'x-shopify-hmac-sha256': hex }), 'malformed_header');
    });
  });

  describe('slack', () => {
    const body = JSON.stringify({ token: 'x', type: 'event_callback', event: { type: 'app_mention', text: 'hi' } });

    test("a delivery signed by Slack's documented algorithm is accepted", async () => {
      const l = await deliver(ep.slack!, body, slackHeaders(body), 200);
      assert.equal(l.status, 'success');
      assert.deepEqual([l.verification.scheme, l.verification.result], ['slack', 'valid']);
    });

    test('wrong secret, missing headers, malformed header', async () => {
      assert.equal(await reasonOf(ep.slack!, body, slackHeaders(body, 'wrong-secret')), 'no_matching_signature');
      assert.equal(await reasonOf(ep.slack!, body, {}), 'missing_header');
      const { 'x-slack-signature': sig } = slackHeaders(body);
      const l = await deliver(ep.slack!, body, { 'x-slack-signature': sig }, 400);
      assert.equal(l.verification.reason, 'missing_header');
      assert.match(l.verification.detail, /X-Slack-Request-Timestamp/);
      assert.equal(
        await reasonOf(ep.slack!, body, { ...slackHeaders(body), 'x-slack-signature': 'v1=deadbeef' }),
        'malformed_header',
      );
    });

    test('a stale timestamp is timestamp_outside_tolerance; a per-endpoint tolerance widens it', async () => {
      const stale = slackHeaders(body, SLACK_SECRET, nowSeconds() - 600);
      assert.equal(await reasonOf(ep.slack!, body, stale), 'timestamp_outside_tolerance');
      const wide = await t.endpoint({
        name: 'slack wide',
        validationType: 'slack',
        webhookSecret: SLACK_SECRET,
        toleranceSeconds: 900,
      });
      await deliver(wide, body, stale, 200);
    });
  });

  describe('standard_webhooks', () => {
    const body = JSON.stringify({ type: 'invoice.paid', timestamp: '2024-01-01T00:00:00Z', data: { id: 'inv_1' } });

    test('a delivery signed by the standardwebhooks library is accepted', async () => {
      const l = await deliver(ep.sw!, body, swHeaders(body), 200);
      assert.equal(l.status, 'success');
      assert.deepEqual([l.verification.scheme, l.verification.result], ['standard_webhooks', 'valid']);
    });

    test('several signatures, one of which matches, are accepted', async () => {
      const h = swHeaders(body);
      const others = [
        swHeaders(body, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAA')['webhook-signature'],
        'v1a,ignoredAsymmetric=',
        'v2,bm90IHVzZWQ=',
      ];
      await deliver(ep.sw!, body, { ...h, 'webhook-signature': [...others, h['webhook-signature']].join(' ') }, 200);
    });

    test('wrong secret, missing header, malformed header', async () => {
      assert.equal(
        await reasonOf(ep.sw!, body, swHeaders(body, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAA')),
        'no_matching_signature',
      );
      const { 'webhook-id': _id, ...noId } = swHeaders(body);
      const l = await deliver(ep.sw!, body, noId, 400);
      assert.equal(l.verification.reason, 'missing_header');
      assert.match(l.verification.detail, /webhook-id/);
      assert.equal(
        await reasonOf(ep.sw!, body, { ...swHeaders(body), 'webhook-signature': 'not a signature' }),
        'malformed_header',
      );
      assert.equal(
        await reasonOf(ep.sw!, body, { ...swHeaders(body), 'webhook-timestamp': 'yesterday' }),
        'malformed_header',
      );
    });

    test('a stale or future timestamp is timestamp_outside_tolerance', async () => {
      assert.equal(
        await reasonOf(ep.sw!, body, swHeaders(body, SW_SECRET, new Date(Date.now() - 600_000))),
        'timestamp_outside_tolerance',
      );
      assert.equal(
        await reasonOf(ep.sw!, body, swHeaders(body, SW_SECRET, new Date(Date.now() + 600_000))),
        'timestamp_outside_tolerance',
      );
    });
  });

  describe('endpoint options', () => {
    test('aliases create the canonical type', async () => {
      for (const [given, canonical] of [
        ['GitHub', 'github'],
        ['gh', 'github'],
        ['SHOPIFY', 'shopify'],
        ['Slack', 'slack'],
        ['standard-webhooks', 'standard_webhooks'],
        ['standardwebhooks', 'standard_webhooks'],
        ['Standard_Webhooks', 'standard_webhooks'],
        ['svix', 'standard_webhooks'],
      ] as const) {
        const secret = canonical === 'standard_webhooks' ? SW_SECRET : 'alias-secret';
        const r = await t.api('POST', '/api/endpoints', {
          body: { name: given, validationType: given, webhookSecret: secret },
        });
        assert.equal(r.status, 201, given);
        assert.equal(r.body.data.validationType, canonical, given);
      }
    });

    test('an unknown type is 400 listing the allowed ones', async () => {
      const r = await t.api('POST', '/api/endpoints', {
        body: { name: 'x', validationType: 'gitlab', webhookSecret: 's' },
      });
      assert.equal(r.status, 400);
      assert.match(r.body.error.message, /validationType/);
      for (const v of ['github', 'shopify', 'slack', 'standard_webhooks'])
        assert.ok(r.body.error.details.issues[0].message.includes(v) || r.body.error.message.includes(v), v);
    });

    test('toleranceSeconds is accepted for stripe, slack and standard_webhooks and refused otherwise, naming the field', async () => {
      for (const type of ['stripe', 'slack', 'standard_webhooks']) {
        const r = await t.api('POST', '/api/endpoints', {
          body: { name: type, validationType: type, webhookSecret: SW_SECRET, toleranceSeconds: 60 },
        });
        assert.equal(r.status, 201, type);
        assert.equal(r.body.data.toleranceSeconds, 60);
        const p = await t.api('PATCH', `/api/endpoints/${r.body.data.id}`, { body: { toleranceSeconds: 120 } });
        assert.equal(p.status, 200, type);
      }
      for (const type of ['github', 'shopify', 'hmac_sha256', 'none']) {
        const r = await t.api('POST', '/api/endpoints', {
          body: { name: type, validationType: type, webhookSecret: 'abc', toleranceSeconds: 60 },
        });
        assert.equal(r.status, 400, type);
        assert.equal(r.body.error.details.field, 'toleranceSeconds');
        assert.match(r.body.error.message, /stripe, slack, standard_webhooks/);
      }
      const p = await t.api('PATCH', `/api/endpoints/${ep.github}`, { body: { toleranceSeconds: 60 } });
      assert.equal(p.status, 400);
      assert.equal(p.body.error.details.field, 'toleranceSeconds');
    });

    test('a standard_webhooks secret must be whsec_<base64> or base64', async () => {
      for (const ok of [SW_SECRET, SW_SECRET.slice('whsec_'.length), 'whsec_AA==']) {
        const r = await t.api('POST', '/api/endpoints', {
          body: { name: 'sw', validationType: 'standard_webhooks', webhookSecret: ok },
        });
        assert.equal(r.status, 201, ok);
      }
      for (const bad of ['whsec_', 'whsec_not base64!', 'whsec_YWI', 'plain-text-secret']) {
        const r = await t.api('POST', '/api/endpoints', {
          body: { name: 'sw', validationType: 'standard_webhooks', webhookSecret: bad },
        });
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.error.details.field, 'webhookSecret');
      }
    });

    test('regenerate-secret is 409 with a reason for every provider-issued secret', async () => {
      for (const [key, provider] of [
        ['github', /GitHub/],
        ['shopify', /Shopify/],
        ['slack', /Slack/],
        ['sw', /sending service/],
      ] as const) {
        const r = await t.api('POST', `/api/endpoints/${ep[key]}/regenerate-secret`);
        assert.equal(r.status, 409, key);
        assert.equal(r.body.error.code, 'SECRET_NOT_REGENERABLE');
        assert.match(r.body.error.message, provider);
      }
    });
  });
});
