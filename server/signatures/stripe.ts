import { decodeLowerHex } from './signature-encoding.ts';
import { hmacSha256, sameBytes } from './hmac.ts';
import { hex, jsonSample } from './sample-payload.ts';
import { anySecret, issuedBy } from './secret-rules.ts';
import type { SignatureScheme, TimestampRules } from './signature-scheme.ts';
import { checkTolerance } from './timestamp-tolerance.ts';
import { headerValue, invalid, valid } from './verification.ts';

export const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature';

interface ParsedHeader {
  timestamp: number;
  v1: Buffer[];
}

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`; other schemes (v0) are ignored, as
 * Stripe's SDK does. A v1 counts only as 64 lower-case hex characters, the form
 * Stripe sends: the SDK compares the text, so upper-case or cut values never match.
 */
export function parseStripeHeader(value: string): ParsedHeader | null {
  let timestamp: number | null = null;
  const v1: Buffer[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(val)) return null;
      timestamp = Number(val);
    } else if (key === 'v1') {
      const sig = decodeLowerHex(val);
      if (sig) v1.push(sig);
    }
  }
  if (timestamp === null || v1.length === 0) return null;
  return { timestamp, v1 };
}

/** Stripe signs `"{t}." + raw body` with the whole `whsec_...` string as the key. */
export function stripeSignature(secret: string, body: Buffer, timestampSeconds: number): Buffer {
  return hmacSha256(secret, `${timestampSeconds}.`, body);
}

export function stripeSignatureHeader(secret: string, body: Buffer, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${stripeSignature(secret, body, timestampSeconds).toString('hex')}`;
}

const TIMESTAMP: TimestampRules = {
  read: (headers) => {
    const v = headerValue(headers, STRIPE_SIGNATURE_HEADER);
    return v ? (parseStripeHeader(v)?.timestamp ?? null) : null;
  },
  // Stripe's SDK refuses only old timestamps (age > tolerance) and accepts any future one;
  // Hookscope's answer must be the one the user's handler will get, so the future is not checked.
  future: false,
};

/** Stripe: `t=...,v1=...` over `"{t}.{raw body}"`, any v1 may match; only the age is limited. */
export const stripeScheme: SignatureScheme<'stripe'> = {
  id: 'stripe',
  headers: {
    writes: [STRIPE_SIGNATURE_HEADER],
    reads: [STRIPE_SIGNATURE_HEADER],
    signature: [STRIPE_SIGNATURE_HEADER],
  },
  customSignatureHeader: false,
  secret: {
    required: true,
    problem: anySecret,
    notRegenerable: issuedBy('Stripe (Dashboard > Developers > Webhooks, "Roll secret")'),
  },
  timestamp: TIMESTAMP,

  verify(input) {
    const header = headerValue(input.headers, STRIPE_SIGNATURE_HEADER);
    if (header === undefined) return invalid('stripe', 'missing_header', 'The Stripe-Signature header is missing.');
    const parsed = parseStripeHeader(header);
    if (!parsed) {
      return invalid(
        'stripe',
        'malformed_header',
        'Stripe-Signature must look like t=<unix seconds>,v1=<64 lower-case hex characters>.',
      );
    }
    if (input.secrets.length === 0) return invalid('stripe', 'missing_secret', 'The endpoint has no signing secret.');

    // The signature is checked before the time, so a wrong secret is reported as such
    // even when the delivery is also old.
    let matched: 'current' | 'previous' | null = null;
    for (const secret of input.secrets) {
      const expected = stripeSignature(secret.value, input.rawBody, parsed.timestamp);
      if (parsed.v1.some((sig) => sameBytes(sig, expected))) {
        matched = secret.kind;
        break;
      }
    }
    if (!matched) {
      return invalid(
        'stripe',
        'no_matching_signature',
        `None of the ${parsed.v1.length} v1 signature(s) matches the endpoint's secret.`,
      );
    }
    return checkTolerance('stripe', input, parsed.timestamp, TIMESTAMP) ?? valid('stripe', matched);
  },

  sign: ({ body, secret, nowMs }) => [
    [STRIPE_SIGNATURE_HEADER, stripeSignatureHeader(secret, body, Math.floor(nowMs / 1000))],
  ],

  samplePayload: ({ random, nowMs }) =>
    jsonSample({
      id: `evt_test_${hex(random, 12)}`,
      object: 'event',
      api_version: '2024-06-20',
      created: Math.floor(nowMs / 1000),
      data: {
        object: {
          id: `pi_test_${hex(random, 12)}`,
          object: 'payment_intent',
          amount: 2000,
          amount_received: 2000,
          currency: 'usd',
          description: 'Hookscope test delivery',
          livemode: false,
          status: 'succeeded',
        },
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.succeeded',
    }),
};
