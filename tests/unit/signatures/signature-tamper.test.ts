import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, test } from '../../helpers/node-test.ts';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { verify } from '../../../server/signatures/registry.ts';
import type { SchemeId } from '../../../server/signatures/scheme-ids.ts';
import type { VerificationReason } from '../../../server/signatures/verification.ts';
import { acceptsAt } from '../../helpers/pinned-date.ts';

/*
 * One table for every signing scheme: a signature made by the provider's SDK (or by
 * node:crypto exactly as the provider documents it) is accepted, and each small change
 * to it is refused with the right reason. Where a provider library or documented check
 * exists, it is asked too, and Hookscope's verdict must equal it.
 *
 * Reasons: a value of the right shape whose bytes differ is no_matching_signature; a
 * value no correct signer writes (wrong length, wrong alphabet, wrong case where the
 * provider fixes one, the other encoding, base64 whose unused trailing bits are set) is
 * malformed_header.
 *
 * Case decisions, judged by what each provider's own check accepts:
 * - github, slack, stripe: lower-case hex only. GitHub (@octokit/webhooks-methods, the
 *   docs' secure_compare), Slack (hmac.compare_digest in its docs) and Stripe's SDK
 *   (secureCompare) compare the header TEXT, so upper-case hex never verifies there.
 * - shopify, standard_webhooks: base64, which is case-sensitive; their checks compare
 *   the base64 text, so only the canonical text counts.
 * - hmac_sha256 (generic): no provider fixes a form, so hex in either case, base64 or
 *   base64url with or without padding are all the same signature (design: "hex or
 *   base64"); only changes to the bytes, or non-canonical base64, are refused.
 */

const NOW_S = 1_700_000_000;
const NOW_MS = NOW_S * 1000;
const BODY = '{"id":"evt_tamper","type":"test.event","data":{"amount":1200,"note":"é ☃"}}';
const BODY_BYTES = Buffer.from(BODY, 'utf8');

type Encoding = 'hex' | 'base64';
type Headers = Record<string, string>;

const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const alphabet = (e: Encoding) => (e === 'hex' ? HEX : B64);

interface Made {
  /** The signature text as the provider wrote it (no `sha256=`/`v0=`/`v1,` label). */
  slot: string;
  /** The provider's headers with the signature text replaced. */
  headersWith: (signature: string) => Headers;
}

interface SchemeCase {
  label: string;
  scheme: SchemeId;
  secret: string;
  signatureHeader: string | null;
  encoding: Encoding;
  make(): Promise<Made>;
  /** The provider's own verdict on these headers, where a library or documented check exists. */
  providerAccepts?(headers: Headers): Promise<boolean>;
  /** Tampers this scheme accepts by design, each with the reason. */
  accepts?: Partial<Record<TamperName, string>>;
}

/** Equal-length constant-time comparison of two strings, as the providers' docs write it. */
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data, 'utf8');

const stripe = new Stripe('sk_test_unused');

const CASES: SchemeCase[] = [
  {
    label: 'stripe',
    scheme: 'stripe',
    secret: 'whsec_tamper_stripe_secret',
    signatureHeader: null,
    encoding: 'hex',
    async make() {
      const header = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: this.secret, timestamp: NOW_S });
      const slot = /v1=([0-9a-f]{64})/.exec(header)![1]!;
      return { slot, headersWith: (sig) => ({ 'stripe-signature': header.replace(`v1=${slot}`, `v1=${sig}`) }) };
    },
    async providerAccepts(h) {
      try {
        stripe.webhooks.constructEvent(BODY_BYTES, h['stripe-signature']!, this.secret, 300, undefined, NOW_MS);
        return true;
      } catch {
        return false;
      }
    },
  },
  {
    label: 'github',
    scheme: 'github',
    secret: "It's a Secret to Everybody",
    signatureHeader: null,
    encoding: 'hex',
    async make() {
      const header = await octokitSign(this.secret, BODY);
      assert.match(header, /^sha256=[0-9a-f]{64}$/);
      return {
        slot: header.slice('sha256='.length),
        headersWith: (sig) => ({ 'x-hub-signature-256': `sha256=${sig}` }),
      };
    },
    async providerAccepts(h) {
      return octokitVerify(this.secret, BODY, h['x-hub-signature-256']!).catch(() => false);
    },
  },
  {
    label: 'shopify',
    scheme: 'shopify',
    secret: 'shpss_tamper_secret',
    signatureHeader: null,
    encoding: 'base64',
    async make() {
      // Shopify: base64 HMAC-SHA256 of the raw body in X-Shopify-Hmac-Sha256.
      return {
        slot: hmac(this.secret, BODY).digest('base64'),
        headersWith: (sig) => ({ 'x-shopify-hmac-sha256': sig }),
      };
    },
    async providerAccepts(h) {
      return sameText(hmac(this.secret, BODY).digest('base64'), h['x-shopify-hmac-sha256']!);
    },
  },
  {
    label: 'slack',
    scheme: 'slack',
    secret: '8f742231b10e8888abcd99yyyzzz85a5',
    signatureHeader: null,
    encoding: 'hex',
    async make() {
      // Slack: v0= + hex HMAC-SHA256 of "v0:{timestamp}:{body}".
      const slot = hmac(this.secret, `v0:${NOW_S}:${BODY}`).digest('hex');
      return {
        slot,
        headersWith: (sig) => ({ 'x-slack-request-timestamp': String(NOW_S), 'x-slack-signature': `v0=${sig}` }),
      };
    },
    async providerAccepts(h) {
      const ts = h['x-slack-request-timestamp']!;
      if (Math.abs(NOW_S - Number(ts)) > 60 * 5) return false;
      return sameText(`v0=${hmac(this.secret, `v0:${ts}:${BODY}`).digest('hex')}`, h['x-slack-signature']!);
    },
  },
  {
    label: 'standard_webhooks',
    scheme: 'standard_webhooks',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    signatureHeader: null,
    encoding: 'base64',
    async make() {
      const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
      const header = new Webhook(this.secret).sign(id, new Date(NOW_MS), BODY);
      assert.match(header, /^v1,/);
      return {
        slot: header.slice('v1,'.length),
        headersWith: (sig) => ({
          'webhook-id': id,
          'webhook-timestamp': String(NOW_S),
          'webhook-signature': `v1,${sig}`,
        }),
      };
    },
    async providerAccepts(h) {
      // The library reads the time from Date.now(): pinned to the same instant.
      return acceptsAt(NOW_MS, () => new Webhook(this.secret).verify(BODY, h));
    },
  },
  {
    label: 'hmac_sha256 (sha256=<hex> in a per-endpoint header)',
    scheme: 'hmac_sha256',
    secret: 'generic-tamper-secret',
    signatureHeader: 'X-Acme-Signature',
    encoding: 'hex',
    async make() {
      return {
        slot: hmac(this.secret, BODY).digest('hex'),
        headersWith: (sig) => ({ 'x-acme-signature': `sha256=${sig}` }),
      };
    },
    accepts: {
      'upper case': 'generic: hex of either case is the same digest',
      'swap case': 'generic: hex of either case is the same digest',
      'other encoding': 'generic: hex and base64 are both accepted',
    },
  },
  {
    label: 'hmac_sha256 (bare base64 in X-Webhook-Signature)',
    scheme: 'hmac_sha256',
    secret: 'generic-tamper-secret',
    signatureHeader: null,
    encoding: 'base64',
    async make() {
      return { slot: hmac(this.secret, BODY).digest('base64'), headersWith: (sig) => ({ 'x-webhook-signature': sig }) };
    },
    accepts: {
      'drop last char': 'generic: base64 padding is optional, and the last char of 32 bytes in base64 is the = pad',
      'other encoding': 'generic: hex and base64 are both accepted',
    },
  },
];

/** Replaces the character at `i` by the one whose alphabet value differs by `bit`. */
const flipChar = (s: string, i: number, e: Encoding, bit: number): string => {
  const a = alphabet(e);
  const v = a.indexOf(s[i]!);
  assert.notEqual(v, -1, `${s[i]} is not ${e}`);
  return s.slice(0, i) + a[v ^ bit] + s.slice(i + 1);
};
/** Index of the last character that carries data (base64's `=` pads carry none). */
const lastDataIndex = (s: string) => s.replace(/=+$/, '').length - 1;
const decode = (s: string, e: Encoding) => Buffer.from(s, e);
const encode = (b: Buffer, e: Encoding) => b.toString(e);
const withByte = (s: string, e: Encoding, index: number, xor: number): string => {
  const b = decode(s, e);
  b[index < 0 ? b.length + index : index]! ^= xor;
  return encode(b, e);
};
const swapCase = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
/** base64 is read only in its canonical text; anything else is not what a signer writes. */
const base64Reason = (s: string): VerificationReason =>
  Buffer.from(s, 'base64').toString('base64') === s ? 'no_matching_signature' : 'malformed_header';

interface Tamper {
  apply(slot: string, e: Encoding): string;
  /** Does this change mean something for this encoding (lower-casing lower-case hex does not)? */
  appliesTo?(e: Encoding): boolean;
  reason(e: Encoding, tampered: string): VerificationReason;
}

const TAMPERS = {
  // The low bit of base64's last data char is one of the two unused bits: Node decodes
  // both texts to the same 32 bytes, so only a canonical-text check refuses it.
  'last char, low bit': {
    apply: (s, e) => flipChar(s, lastDataIndex(s), e, 1),
    reason: (e) => (e === 'hex' ? 'no_matching_signature' : 'malformed_header'),
  },
  'last char, high bit': {
    apply: (s, e) => flipChar(s, lastDataIndex(s), e, e === 'hex' ? 8 : 32),
    reason: () => 'no_matching_signature',
  },
  'last decoded byte': { apply: (s, e) => withByte(s, e, -1, 0x01), reason: () => 'no_matching_signature' },
  'first decoded byte': { apply: (s, e) => withByte(s, e, 0, 0x80), reason: () => 'no_matching_signature' },
  'first char': { apply: (s, e) => flipChar(s, 0, e, 1), reason: () => 'no_matching_signature' },
  'drop last char': { apply: (s) => s.slice(0, -1), reason: () => 'malformed_header' },
  'drop last data char': {
    apply: (s) => s.slice(0, lastDataIndex(s)) + s.slice(lastDataIndex(s) + 1),
    appliesTo: (e) => e === 'base64',
    reason: () => 'malformed_header',
  },
  'cut to half': { apply: (s) => s.slice(0, Math.floor(s.length / 2)), reason: () => 'malformed_header' },
  'one char added': { apply: (s, e) => s + (e === 'hex' ? '0' : 'A'), reason: () => 'malformed_header' },
  'upper case': {
    apply: (s) => s.toUpperCase(),
    reason: (e, t) => (e === 'hex' ? 'malformed_header' : base64Reason(t)),
  },
  'lower case': { apply: (s) => s.toLowerCase(), appliesTo: (e) => e === 'base64', reason: (_e, t) => base64Reason(t) },
  'swap case': { apply: swapCase, reason: (e, t) => (e === 'hex' ? 'malformed_header' : base64Reason(t)) },
  'other encoding': {
    apply: (s, e) => encode(decode(s, e), e === 'hex' ? 'base64' : 'hex'),
    reason: () => 'malformed_header',
  },
} satisfies Record<string, Tamper>;
type TamperName = keyof typeof TAMPERS;

const verifyHeaders = (c: SchemeCase, headers: Headers) =>
  verify(c.scheme, {
    rawBody: BODY_BYTES,
    headers,
    secrets: [{ value: c.secret, kind: 'current' }],
    signatureHeader: c.signatureHeader,
    toleranceSeconds: null,
    nowMs: NOW_MS,
  });

describe('signature tampering, every scheme', () => {
  for (const c of CASES) {
    describe(c.label, () => {
      test('the provider-made signature is accepted, by us and by the provider', async () => {
        const { slot, headersWith } = await c.make();
        const r = verifyHeaders(c, headersWith(slot));
        assert.deepEqual([r.scheme, r.result, r.reason, r.matchedSecret], [c.scheme, 'valid', null, 'current']);
        if (c.providerAccepts) assert.equal(await c.providerAccepts(headersWith(slot)), true);
      });

      for (const [name, tamper] of Object.entries(TAMPERS) as [TamperName, Tamper][]) {
        if (tamper.appliesTo && !tamper.appliesTo(c.encoding)) continue;
        const accepted = c.accepts?.[name];
        test(`${name}: ${accepted ? `accepted (${accepted})` : 'refused'}`, async () => {
          const { slot, headersWith } = await c.make();
          const tampered = tamper.apply(slot, c.encoding);
          assert.notEqual(tampered, slot, 'the change must change the text');
          const r = verifyHeaders(c, headersWith(tampered));
          const expected = accepted ? null : tamper.reason(c.encoding, tampered);
          assert.deepEqual(
            { scheme: r.scheme, result: r.result, reason: r.reason },
            { scheme: c.scheme, result: accepted ? 'valid' : 'invalid', reason: expected },
            `${c.label} ${name}: ${JSON.stringify(tampered)} -> ${r.detail}`,
          );
          if (!accepted) assert.match(r.detail ?? '', /\w{3,}.*\w{3,}/, 'a sentence for people');
          if (c.providerAccepts) {
            assert.equal(
              await c.providerAccepts(headersWith(tampered)),
              Boolean(accepted),
              "the provider's own check agrees",
            );
          }
        });
      }
    });
  }

  test('none: any signature header, tampered or not, is skipped and never valid', () => {
    const r = verify('none', {
      rawBody: BODY_BYTES,
      headers: {
        'x-webhook-signature': 'sha256=' + '0'.repeat(64),
        'stripe-signature': `t=${NOW_S},v1=${'f'.repeat(64)}`,
      },
      secrets: [],
      signatureHeader: null,
      toleranceSeconds: null,
      nowMs: NOW_MS,
    });
    assert.deepEqual([r.scheme, r.result, r.reason, r.matchedSecret], ['none', 'skipped', null, null]);
  });
});
