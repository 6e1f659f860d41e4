import { decodeCanonicalBase64 } from './signature-encoding.ts';
import { hmacSha256, sameBytes } from './signing.ts';
import {
  headerValue,
  invalid,
  valid,
  type VerificationInput,
  type VerificationResult,
  type Verifier,
} from './verifier-types.ts';

export const SHOPIFY_SIGNATURE_HEADER = 'X-Shopify-Hmac-Sha256';

/**
 * Standard base64 of SHA-256's 32 bytes (44 characters, one `=`), in its canonical
 * text: Shopify's documented check compares the base64 strings, so a value whose
 * unused trailing bits differ (same bytes once decoded) is refused there and here.
 */
export function parseShopifySignature(value: string): Buffer | null {
  return decodeCanonicalBase64(value.trim());
}

export function shopifySignature(secret: string, body: Buffer): string {
  return hmacSha256(secret, body).toString('base64');
}

/** Shopify: base64 HMAC-SHA256 of the raw body keyed with the app's secret; no timestamp. */
export const shopifyVerifier: Verifier = {
  scheme: 'shopify',
  verify(input: VerificationInput): VerificationResult {
    const header = headerValue(input.headers, SHOPIFY_SIGNATURE_HEADER);
    if (header === undefined)
      return invalid('shopify', 'missing_header', `The ${SHOPIFY_SIGNATURE_HEADER} header is missing.`);
    const signature = parseShopifySignature(header);
    if (!signature) {
      return invalid(
        'shopify',
        'malformed_header',
        `${SHOPIFY_SIGNATURE_HEADER} must be the standard base64 of a 32-byte HMAC-SHA256 (44 characters ending in =), as Shopify sends it.`,
      );
    }
    if (input.secrets.length === 0) return invalid('shopify', 'missing_secret', 'The endpoint has no signing secret.');
    for (const secret of input.secrets) {
      if (sameBytes(signature, hmacSha256(secret.value, input.rawBody))) return valid('shopify', secret.kind);
    }
    return invalid(
      'shopify',
      'no_matching_signature',
      `The ${SHOPIFY_SIGNATURE_HEADER} signature does not match a base64 HMAC-SHA256 of the body with the endpoint's secret.`,
    );
  },
};
