import {
  invalid,
  valid,
  headerValue,
  type VerificationInput,
  type VerificationResult,
  type Verifier,
} from './verifier-types.ts';
import { decodeLowerHex } from './signature-encoding.ts';
import { sameBytes, stripeSignature } from './signing.ts';
import { checkTolerance } from './timestamp-tolerance.ts';

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

export const stripeVerifier: Verifier = {
  scheme: 'stripe',
  verify(input: VerificationInput): VerificationResult {
    const header = headerValue(input.headers, 'stripe-signature');
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

    // Stripe's SDK refuses only old timestamps (age > tolerance) and accepts any future one;
    // Hookscope's answer must be the one the user's handler will get, so the future is not checked.
    return checkTolerance('stripe', input, parsed.timestamp, { future: false }) ?? valid('stripe', matched);
  },
};
