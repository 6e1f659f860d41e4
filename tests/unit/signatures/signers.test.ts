import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from '../../helpers/node-test.ts';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { sign, verify } from '../../../server/signatures/registry.ts';
import type { SignedHeaders } from '../../../server/signatures/signature-scheme.ts';
import type { SchemeId } from '../../../server/signatures/scheme-ids.ts';
import type { VerificationInput } from '../../../server/signatures/verification.ts';

const BODY = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'test.event', data: { amount: 1200, note: 'é ☃' } }));
const SECRETS: Record<SchemeId, string> = {
  stripe: 'whsec_stripe_unit_secret',
  github: 'github unit secret',
  shopify: 'shopify-unit-secret',
  slack: '8f742231b10e8888abcd99yyyzzz85a5',
  standard_webhooks: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  hmac_sha256: 'generic-unit-secret',
  none: '',
};
const SCHEMES = Object.keys(SECRETS) as SchemeId[];

const headersOf = (signed: SignedHeaders): Record<string, string> =>
  Object.fromEntries(signed.map(([n, v]) => [n.toLowerCase(), v]));
const signNow = (scheme: SchemeId, extra: { messageId?: string; signatureHeader?: string } = {}) =>
  sign(scheme, {
    body: BODY,
    secret: SECRETS[scheme],
    nowMs: Date.now(),
    signatureHeader: extra.signatureHeader ?? null,
    messageId: extra.messageId,
  });

const input = (
  scheme: SchemeId,
  headers: Record<string, string>,
  over: Partial<VerificationInput> = {},
): VerificationInput => ({
  rawBody: BODY,
  headers,
  secrets: scheme === 'none' ? [] : [{ value: SECRETS[scheme], kind: 'current' }],
  signatureHeader: null,
  toleranceSeconds: null,
  nowMs: Date.now(),
  ...over,
});

describe("signatures made by sign() pass the provider's own verification", () => {
  test('stripe: stripe.webhooks.constructEvent', () => {
    const stripe = new Stripe('sk_test_x');
    const header = headersOf(signNow('stripe'))['stripe-signature']!;
    const event = stripe.webhooks.constructEvent(BODY, header, SECRETS.stripe);
    assert.equal(event.id, 'evt_1');
  });

  test('standard_webhooks: new Webhook(secret).verify', () => {
    const headers = headersOf(signNow('standard_webhooks'));
    assert.match(headers['webhook-id']!, /^msg_[0-9a-f]{32}$/);
    const payload = new Webhook(SECRETS.standard_webhooks).verify(BODY, headers) as { id: string };
    assert.equal(payload.id, 'evt_1');
    // Plain base64 (no whsec_) is the same key.
    const plain = sign('standard_webhooks', {
      body: BODY,
      secret: SECRETS.standard_webhooks.slice(6),
      nowMs: Date.now(),
      signatureHeader: null,
      messageId: 'msg_fixed',
    });
    assert.equal(headersOf(plain)['webhook-id'], 'msg_fixed');
    new Webhook(SECRETS.standard_webhooks).verify(BODY, headersOf(plain));
  });

  test('standard_webhooks: a given message id makes the headers deterministic', () => {
    const at = {
      body: BODY,
      secret: SECRETS.standard_webhooks,
      nowMs: 1_700_000_000_000,
      signatureHeader: null,
      messageId: 'msg_same',
    };
    assert.deepEqual(sign('standard_webhooks', at), sign('standard_webhooks', at));
    const lib = new Webhook(SECRETS.standard_webhooks).sign('msg_same', new Date(at.nowMs), BODY);
    assert.equal(headersOf(sign('standard_webhooks', at))['webhook-signature'], lib);
  });

  test('github: @octokit/webhooks-methods verify', async () => {
    const header = headersOf(signNow('github'))['x-hub-signature-256']!;
    assert.equal(await octokitVerify(SECRETS.github, BODY.toString('utf8'), header), true);
  });

  test('shopify: base64 HMAC-SHA256 of the body, as Shopify documents it', () => {
    const expected = createHmac('sha256', SECRETS.shopify).update(BODY).digest('base64');
    assert.equal(headersOf(signNow('shopify'))['x-shopify-hmac-sha256'], expected);
  });

  test("slack: v0=HMAC of v0:{timestamp}:{body}, as Slack's docs compute it", () => {
    const h = headersOf(signNow('slack'));
    const ts = h['x-slack-request-timestamp']!;
    assert.ok(Math.abs(Number(ts) - Date.now() / 1000) < 5);
    const expected =
      'v0=' +
      createHmac('sha256', SECRETS.slack)
        .update(`v0:${ts}:${BODY.toString('utf8')}`)
        .digest('hex');
    assert.equal(h['x-slack-signature'], expected);
  });

  test('hmac_sha256: sha256=<hex> in the per-endpoint header', () => {
    const h = headersOf(signNow('hmac_sha256', { signatureHeader: 'X-Acme-Sig' }));
    assert.equal(h['x-acme-sig'], 'sha256=' + createHmac('sha256', SECRETS.hmac_sha256).update(BODY).digest('hex'));
  });

  test('none: no headers', () => {
    assert.deepEqual(signNow('none'), []);
  });
});

describe('our verifiers accept what sign() makes, for every scheme', () => {
  for (const scheme of SCHEMES) {
    test(scheme, () => {
      const r = verify(scheme, input(scheme, headersOf(signNow(scheme))));
      assert.equal(r.result, scheme === 'none' ? 'skipped' : 'valid', JSON.stringify(r));
      assert.equal(r.scheme, scheme);
    });
  }

  test('a previous secret within its grace period is honoured and reported as such', () => {
    for (const scheme of SCHEMES.filter((s) => s !== 'none')) {
      const headers = headersOf(signNow(scheme));
      const other = scheme === 'standard_webhooks' ? 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAA' : 'another-current-secret';
      const r = verify(
        scheme,
        input(scheme, headers, {
          secrets: [
            { value: other, kind: 'current' },
            { value: SECRETS[scheme], kind: 'previous' },
          ],
        }),
      );
      assert.equal(r.result, 'valid', scheme);
      assert.equal(r.matchedSecret, 'previous', scheme);
    }
  });

  test('a changed body is no_matching_signature for every signed scheme', () => {
    for (const scheme of SCHEMES.filter((s) => s !== 'none')) {
      const r = verify(
        scheme,
        input(scheme, headersOf(signNow(scheme)), { rawBody: Buffer.concat([BODY, Buffer.from(' ')]) }),
      );
      assert.equal(r.reason, 'no_matching_signature', scheme);
      assert.ok(r.detail && r.detail.length > 10);
    }
  });

  test('timestamped schemes: a wrong secret on an old delivery reports the secret, not the time', () => {
    for (const scheme of ['stripe', 'slack', 'standard_webhooks'] as const) {
      const old = sign(scheme, {
        body: BODY,
        secret: SECRETS[scheme],
        nowMs: Date.now() - 3600_000,
        signatureHeader: null,
      });
      assert.equal(verify(scheme, input(scheme, headersOf(old))).reason, 'timestamp_outside_tolerance', scheme);
      const wrong = scheme === 'standard_webhooks' ? 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAA' : 'wrong';
      const r = verify(scheme, input(scheme, headersOf(old), { secrets: [{ value: wrong, kind: 'current' }] }));
      assert.equal(r.reason, 'no_matching_signature', scheme);
      // The per-endpoint tolerance widens the window (boundaries: tolerance-boundaries.test.ts).
      assert.equal(verify(scheme, input(scheme, headersOf(old), { toleranceSeconds: 7200 })).result, 'valid', scheme);
    }
  });

  test('github: only the legacy SHA-1 header is missing_header with a sentence saying so', () => {
    const sha1 = 'sha1=' + createHmac('sha1', SECRETS.github).update(BODY).digest('hex');
    const r = verify('github', input('github', { 'x-hub-signature': sha1 }));
    assert.equal(r.reason, 'missing_header');
    assert.match(r.detail!, /X-Hub-Signature \(SHA-1\).*X-Hub-Signature-256/);
  });

  test('slack: a missing timestamp header is missing_header naming it', () => {
    const h = headersOf(signNow('slack'));
    delete h['x-slack-request-timestamp'];
    const r = verify('slack', input('slack', h));
    assert.equal(r.reason, 'missing_header');
    assert.match(r.detail!, /X-Slack-Request-Timestamp/);
  });

  test('standard_webhooks: svix-* headers are read when no webhook-* header came', () => {
    const h = headersOf(signNow('standard_webhooks'));
    const svix = {
      'svix-id': h['webhook-id']!,
      'svix-timestamp': h['webhook-timestamp']!,
      'svix-signature': h['webhook-signature']!,
    };
    assert.equal(verify('standard_webhooks', input('standard_webhooks', svix)).result, 'valid');
  });

  test('standard_webhooks: only other versions is malformed_header naming them', () => {
    const h = headersOf(signNow('standard_webhooks'));
    const r = verify('standard_webhooks', input('standard_webhooks', { ...h, 'webhook-signature': 'v1a,abc v2,xyz' }));
    assert.equal(r.reason, 'malformed_header');
    assert.match(r.detail!, /v1a, v2/);
  });

  test('no secret is missing_secret', () => {
    for (const scheme of SCHEMES.filter((s) => s !== 'none')) {
      assert.equal(
        verify(scheme, input(scheme, headersOf(signNow(scheme)), { secrets: [] })).reason,
        'missing_secret',
        scheme,
      );
    }
  });
});
