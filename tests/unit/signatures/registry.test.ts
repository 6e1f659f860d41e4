import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, test } from '../../helpers/node-test.ts';
import { atPinnedDate } from '../../helpers/pinned-date.ts';
import { TIMESTAMPED_TYPES, VALIDATION_TYPES } from '../../../server/endpoints/validation-types.ts';
import { schemeFor, SIGNATURE_SCHEMES } from '../../../server/signatures/registry.ts';
import { SCHEME_IDS, type SchemeId } from '../../../server/signatures/scheme-ids.ts';
import { SeededRandom } from '../../../server/support/random.ts';

/*
 * The registry is the one table from endpoint type to signature scheme. Its type makes
 * a missing or extra entry a compile error; these tests hold the running table to the
 * same, and check each scheme as a whole: what it signs (its own sample) passes its own
 * verify and the provider's library, or node:crypto computing what the provider documents.
 */

const NOW_MS = 1_700_000_000_250;
const NOW_S = 1_700_000_000;
const SECRETS: Record<SchemeId, string> = {
  stripe: 'whsec_registry_stripe_secret',
  github: 'registry github secret',
  shopify: 'shpss_registry_secret',
  slack: '8f742231b10e8888abcd99yyyzzz85a5',
  standard_webhooks: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  hmac_sha256: 'registry-generic-secret',
  none: '',
};

type Headers = Record<string, string>;
const hmacOf = (secret: string, ...parts: (string | Buffer)[]) => {
  const mac = createHmac('sha256', secret);
  for (const p of parts) mac.update(p);
  return mac.digest();
};

/** The provider's own verdict at NOW_MS; null where no provider signs (none). */
const PROVIDER_ACCEPTS: Record<SchemeId, ((body: Buffer, h: Headers, secret: string) => Promise<boolean>) | null> = {
  stripe: async (body, h, secret) => {
    try {
      new Stripe('sk_test_unused').webhooks.constructEvent(
        body,
        h['stripe-signature']!,
        secret,
        300,
        undefined,
        NOW_MS,
      );
      return true;
    } catch {
      return false;
    }
  },
  standard_webhooks: async (body, h, secret) => {
    try {
      atPinnedDate(NOW_MS, () => new Webhook(secret).verify(body, h));
      return true;
    } catch {
      return false;
    }
  },
  github: (body, h, secret) => octokitVerify(secret, body.toString('utf8'), h['x-hub-signature-256']!),
  // Shopify documents a base64 HMAC-SHA256 of the raw body, compared as text.
  shopify: async (body, h, secret) => h['x-shopify-hmac-sha256'] === hmacOf(secret, body).toString('base64'),
  // Slack documents v0= hex HMAC of "v0:{timestamp}:{body}", refused when |now - timestamp| > 300.
  slack: async (body, h, secret) => {
    const ts = h['x-slack-request-timestamp']!;
    const expected = `v0=${hmacOf(secret, `v0:${ts}:`, body).toString('hex')}`;
    return h['x-slack-signature'] === expected && Math.abs(NOW_S - Number(ts)) <= 300;
  },
  hmac_sha256: async (body, h, secret) => h['x-webhook-signature'] === `sha256=${hmacOf(secret, body).toString('hex')}`,
  none: null,
};

describe('the signature registry', () => {
  test('holds exactly one scheme per endpoint type, each under its own id', () => {
    assert.deepEqual(
      [...VALIDATION_TYPES],
      ['stripe', 'hmac_sha256', 'none', 'github', 'shopify', 'slack', 'standard_webhooks'],
    );
    assert.deepEqual([...VALIDATION_TYPES], [...SCHEME_IDS]);
    const ids = SIGNATURE_SCHEMES.map((s) => s.id);
    assert.deepEqual([...ids].sort(), [...VALIDATION_TYPES].sort());
    assert.equal(new Set(ids).size, ids.length);
    for (const type of VALIDATION_TYPES) assert.equal(schemeFor(type).id, type);
    assert.throws(() => schemeFor('nope' as SchemeId), /unexpected signature scheme nope/);
    assert.throws(() => schemeFor('toString' as SchemeId), /unexpected signature scheme toString/);
  });

  test("the schemes' rules are the endpoint rules", () => {
    const where = (pick: (id: SchemeId) => boolean) => SCHEME_IDS.filter(pick);
    assert.deepEqual(
      where((id) => schemeFor(id).secret.required),
      ['stripe', 'hmac_sha256', 'github', 'shopify', 'slack', 'standard_webhooks'],
    );
    assert.deepEqual(
      where((id) => schemeFor(id).secret.notRegenerable === null),
      ['hmac_sha256'],
    );
    assert.deepEqual(
      where((id) => schemeFor(id).customSignatureHeader),
      ['hmac_sha256'],
    );
    assert.deepEqual([...TIMESTAMPED_TYPES], ['stripe', 'slack', 'standard_webhooks']);
    // Only Standard Webhooks derives a key from its secret, so only it can refuse one.
    assert.equal(
      schemeFor('standard_webhooks').secret.problem('whsec_not base64!'),
      'webhookSecret for standard_webhooks must be whsec_<base64> or plain base64 (padded, decoding to at least 1 byte), as the sender shows it.',
    );
    for (const id of SCHEME_IDS) assert.equal(schemeFor(id).secret.problem(SECRETS[id]), null, id);
  });

  for (const scheme of SIGNATURE_SCHEMES) {
    test(`${scheme.id}: sign() on its own sample passes its verify and the provider's check`, async () => {
      const secret = SECRETS[scheme.id];
      const sample = scheme.samplePayload({
        endpointId: 'ep_registry',
        nowMs: NOW_MS,
        random: new SeededRandom(7),
        receiverUrl: 'http://127.0.0.1:9/webhook/ep_registry',
      });
      assert.equal(sample.contentType, 'application/json');
      assert.equal(typeof JSON.parse(sample.body), 'object');
      const lower = (names: readonly string[]) => names.map((n) => n.toLowerCase());
      // A sample carries the provider's event headers, never a signature (sign() adds that).
      for (const [name] of sample.headers) assert.ok(!lower(scheme.headers.signature).includes(name.toLowerCase()));

      const body = Buffer.from(sample.body, 'utf8');
      const signed = scheme.sign({ body, secret, nowMs: NOW_MS, signatureHeader: null, messageId: 'msg_registry' });
      assert.deepEqual(
        signed.map(([name]) => name),
        [...scheme.headers.writes],
      );
      for (const name of [...scheme.headers.writes, ...scheme.headers.signature])
        assert.ok(scheme.headers.reads.includes(name), name);

      const headers: Headers = Object.fromEntries(signed.map(([n, v]) => [n.toLowerCase(), v]));
      const own = scheme.verify({
        rawBody: body,
        headers,
        secrets: scheme.secret.required ? [{ value: secret, kind: 'current' }] : [],
        signatureHeader: null,
        toleranceSeconds: null,
        nowMs: NOW_MS,
      });
      assert.deepEqual(own, {
        scheme: scheme.id,
        result: scheme.secret.required ? 'valid' : 'skipped',
        reason: null,
        matchedSecret: scheme.secret.required ? 'current' : null,
        detail: null,
      });
      assert.equal(scheme.timestamp?.read(headers) ?? null, scheme.timestamp ? NOW_S : null);

      const provider = PROVIDER_ACCEPTS[scheme.id];
      if (provider === null) assert.deepEqual(signed, []);
      else assert.equal(await provider(body, headers, secret), true);
    });
  }

  test('hmac_sha256: an endpoint-named header is where sign() writes and verify() reads', () => {
    const scheme = schemeFor('hmac_sha256');
    const body = Buffer.from('{"named":true}');
    const signed = scheme.sign({ body, secret: SECRETS.hmac_sha256, nowMs: NOW_MS, signatureHeader: 'X-Acme-Sig' });
    assert.deepEqual(signed, [['X-Acme-Sig', `sha256=${hmacOf(SECRETS.hmac_sha256, body).toString('hex')}`]]);
    const input = {
      rawBody: body,
      headers: { 'x-acme-sig': signed[0]![1] },
      secrets: [{ value: SECRETS.hmac_sha256, kind: 'current' as const }],
      toleranceSeconds: null,
      nowMs: NOW_MS,
    };
    assert.equal(scheme.verify({ ...input, signatureHeader: 'X-Acme-Sig' }).result, 'valid');
    assert.equal(scheme.verify({ ...input, signatureHeader: null }).reason, 'missing_header');
  });
});
