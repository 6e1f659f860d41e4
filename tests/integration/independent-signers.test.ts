import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { ManualClock } from '../../server/support/clock.ts';
import { TargetServer, type Received } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/*
 * What Hookscope signs (the "send a signed test webhook" action, and replay with
 * resign: true) is checked here by the provider's own library or by node:crypto exactly
 * as the provider documents it, never by Hookscope's verifier: a signer and a verifier
 * that share a mistake would otherwise agree with each other. Secrets carry non-ASCII
 * characters so a wrong key encoding shows. Stripe's and Standard Webhooks' paths are
 * checked by their SDKs in test-delivery.test.ts and replay.test.ts.
 */

const T0 = Date.parse('2026-03-02T09:30:00Z');
const T0_S = T0 / 1000;
const SECRETS = {
  github: 'gh sécret ☃ independent',
  shopify: 'shpss_sécret_☃_independent',
  slack: 'slack-sécret-☃-independent',
  hmac: 'generic sécret ☃ independent',
};

const sameText = (a: string, b: string | undefined) => {
  if (b === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const hmac = (secret: string, ...parts: (string | Buffer)[]) => {
  const mac = createHmac('sha256', secret);
  for (const p of parts) mac.update(p);
  return mac.digest();
};
/** Shopify: base64 HMAC-SHA256 of the raw body, compared as text (its documented check). */
const shopifyValid = (secret: string, body: Buffer, header: string | undefined) =>
  sameText(hmac(secret, body).toString('base64'), header);
/** Slack: v0= + hex HMAC-SHA256 of "v0:{timestamp}:{body}", refused when |now - timestamp| > 5 min. */
const slackValid = (
  secret: string,
  body: Buffer,
  timestamp: string | undefined,
  signature: string | undefined,
  nowMs: number,
) =>
  timestamp !== undefined &&
  /^\d+$/.test(timestamp) &&
  Math.abs(nowMs / 1000 - Number(timestamp)) <= 60 * 5 &&
  sameText(`v0=${hmac(secret, `v0:${timestamp}:`, body).toString('hex')}`, signature);
/** Generic: HMAC-SHA256 of the raw body, hex or base64, optional sha256= prefix (the design's definition). */
const genericValid = (secret: string, body: Buffer, header: string | undefined) => {
  if (header === undefined) return false;
  const value = header.replace(/^sha256=/, '');
  const digest = hmac(secret, body);
  return sameText(digest.toString('hex'), value) || sameText(digest.toString('base64'), value);
};
/** The one value of a header the target received, asserting it came exactly once. */
const single = (r: Received, name: string): string | undefined => {
  const values = r.rawHeaders.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
  assert.ok(values.length <= 1, `${name} came ${values.length} times`);
  return values[0];
};

describe('independent check of what Hookscope signs', () => {
  const clock = new ManualClock(T0);
  let t: TestEngine;
  let target: TargetServer;
  before(async () => {
    t = await startTestEngine({}, { clock });
    target = await TargetServer.start();
  });
  after(async () => {
    await target.close();
    await t.stop();
  });

  const storedLog = async (id: string) => {
    const r = await t.api('GET', `/api/webhooks/logs/${id}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.bodyEncoding, 'utf8');
    return r.body.data as {
      body: string;
      headers: Record<string, string>;
      status: string;
      verification: { result: string };
    };
  };
  /** Sends the endpoint's signed test webhook and returns the stored request. */
  const testDelivery = async (endpointId: string) => {
    const r = await t.api('POST', `/api/endpoints/${endpointId}/test-delivery`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.status, 200);
    const l = await storedLog(r.body.data.logId);
    assert.equal(l.status, 'success');
    return { body: Buffer.from(l.body, 'utf8'), headers: l.headers };
  };
  /** Replays a log to the target and returns exactly what the target received. */
  const replay = async (logId: string, options: Record<string, unknown>) => {
    const before = target.received.length;
    const r = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/hook`, ...options } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(target.received.length, before + 1);
    return target.received.at(-1)!;
  };
  const deliver = async (endpointId: string, body: string, headers: Record<string, string>) => {
    const r = await t.deliver(`/webhook/${endpointId}`, {
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.id as string;
  };

  describe('POST /api/endpoints/:id/test-delivery', () => {
    test('github: @octokit/webhooks-methods verify accepts the stored delivery', async () => {
      const ep = await t.endpoint({ name: 'gh', validationType: 'github', webhookSecret: SECRETS.github });
      const { body, headers } = await testDelivery(ep);
      assert.equal(headers['x-github-event'], 'ping');
      assert.equal(await octokitVerify(SECRETS.github, body.toString('utf8'), headers['x-hub-signature-256']!), true);
      assert.equal(
        await octokitVerify('another secret', body.toString('utf8'), headers['x-hub-signature-256']!),
        false,
      );
    });

    test('shopify: the base64 HMAC of the raw body, as Shopify documents it', async () => {
      const ep = await t.endpoint({ name: 'shop', validationType: 'shopify', webhookSecret: SECRETS.shopify });
      const { body, headers } = await testDelivery(ep);
      assert.equal(
        shopifyValid(SECRETS.shopify, body, headers['x-shopify-hmac-sha256']),
        true,
        headers['x-shopify-hmac-sha256'],
      );
    });

    test("slack: signed at the engine's clock, v0= HMAC of v0:{timestamp}:{body}, as Slack documents it", async () => {
      const ep = await t.endpoint({ name: 'slack', validationType: 'slack', webhookSecret: SECRETS.slack });
      const { body, headers } = await testDelivery(ep);
      assert.equal(headers['x-slack-request-timestamp'], String(T0_S));
      assert.equal(
        slackValid(
          SECRETS.slack,
          body,
          headers['x-slack-request-timestamp'],
          headers['x-slack-signature'],
          clock.now(),
        ),
        true,
      );
    });

    test('hmac_sha256: the HMAC of the raw body in the default and in a per-endpoint header', async () => {
      const plain = await t.endpoint({ name: 'generic', validationType: 'hmac_sha256', webhookSecret: SECRETS.hmac });
      const d = await testDelivery(plain);
      assert.equal(
        genericValid(SECRETS.hmac, d.body, d.headers['x-webhook-signature']),
        true,
        d.headers['x-webhook-signature'],
      );

      const custom = await t.endpoint({
        name: 'acme',
        validationType: 'hmac_sha256',
        webhookSecret: SECRETS.hmac,
        signatureHeader: 'X-Acme-Signature',
      });
      const c = await testDelivery(custom);
      assert.equal(
        genericValid(SECRETS.hmac, c.body, c.headers['x-acme-signature']),
        true,
        c.headers['x-acme-signature'],
      );
      assert.equal(c.headers['x-webhook-signature'], undefined);
    });
  });

  describe('POST /api/replay/:logId with resign: true, checked on the target', () => {
    const original = '{"action":"opened","number":1}';
    const edited = '{ "action": "edited",\n  "note": "é ☃" }';

    test('github: an edited body fails the original signature and passes octokit verify once re-signed', async () => {
      const ep = await t.endpoint({ name: 'gh replay', validationType: 'github', webhookSecret: SECRETS.github });
      const logId = await deliver(ep, original, {
        'X-Hub-Signature-256': await octokitSign(SECRETS.github, original),
        'X-GitHub-Event': 'issues',
      });

      const plain = await replay(logId, { body: edited });
      assert.equal(
        await octokitVerify(SECRETS.github, plain.body.toString('utf8'), single(plain, 'x-hub-signature-256')!),
        false,
      );

      const resigned = await replay(logId, { body: edited, resign: true });
      assert.equal(resigned.body.toString('utf8'), edited);
      assert.equal(
        await octokitVerify(SECRETS.github, resigned.body.toString('utf8'), single(resigned, 'x-hub-signature-256')!),
        true,
      );
      assert.equal(single(resigned, 'x-github-event'), 'issues');
    });

    test('shopify: an edited body re-signed passes the documented check on the target', async () => {
      const ep = await t.endpoint({ name: 'shop replay', validationType: 'shopify', webhookSecret: SECRETS.shopify });
      const logId = await deliver(ep, original, {
        'X-Shopify-Hmac-Sha256': hmac(SECRETS.shopify, original).toString('base64'),
      });

      const plain = await replay(logId, { body: edited });
      assert.equal(shopifyValid(SECRETS.shopify, plain.body, single(plain, 'x-shopify-hmac-sha256')), false);

      const resigned = await replay(logId, { body: edited, resign: true });
      assert.equal(resigned.body.toString('utf8'), edited);
      assert.equal(shopifyValid(SECRETS.shopify, resigned.body, single(resigned, 'x-shopify-hmac-sha256')), true);
    });

    test('slack: 20 minutes later the original is stale on the target; re-signed at the clock it passes', async () => {
      const ep = await t.endpoint({ name: 'slack replay', validationType: 'slack', webhookSecret: SECRETS.slack });
      const ts = String(Math.floor(clock.now() / 1000));
      const logId = await deliver(ep, original, {
        'X-Slack-Request-Timestamp': ts,
        'X-Slack-Signature': `v0=${hmac(SECRETS.slack, `v0:${ts}:${original}`).toString('hex')}`,
      });
      clock.advance(20 * 60_000);
      try {
        const plain = await replay(logId, {});
        assert.equal(single(plain, 'x-slack-request-timestamp'), ts);
        assert.equal(slackValid(SECRETS.slack, plain.body, ts, single(plain, 'x-slack-signature'), clock.now()), false);

        const resigned = await replay(logId, { resign: true });
        const newTs = single(resigned, 'x-slack-request-timestamp');
        assert.equal(newTs, String(Math.floor(clock.now() / 1000)));
        assert.equal(resigned.body.toString('utf8'), original);
        assert.equal(
          slackValid(SECRETS.slack, resigned.body, newTs, single(resigned, 'x-slack-signature'), clock.now()),
          true,
        );

        const edit = await replay(logId, { body: edited, resign: true });
        assert.equal(
          slackValid(
            SECRETS.slack,
            edit.body,
            single(edit, 'x-slack-request-timestamp'),
            single(edit, 'x-slack-signature'),
            clock.now(),
          ),
          true,
        );
      } finally {
        clock.set(T0);
      }
    });

    test('hmac_sha256: re-signed in the per-endpoint header, which replaces the sent one', async () => {
      const ep = await t.endpoint({
        name: 'acme replay',
        validationType: 'hmac_sha256',
        webhookSecret: SECRETS.hmac,
        signatureHeader: 'X-Acme-Signature',
      });
      const logId = await deliver(ep, original, {
        'x-acme-signature': hmac(SECRETS.hmac, original).toString('base64'),
      });

      const plain = await replay(logId, { body: edited });
      assert.equal(genericValid(SECRETS.hmac, plain.body, single(plain, 'x-acme-signature')), false);

      const resigned = await replay(logId, { body: edited, resign: true });
      assert.equal(genericValid(SECRETS.hmac, resigned.body, single(resigned, 'x-acme-signature')), true);
      assert.equal(single(resigned, 'x-webhook-signature'), undefined);
    });
  });
});
