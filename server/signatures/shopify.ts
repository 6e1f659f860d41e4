import { decodeCanonicalBase64 } from './signature-encoding.ts';
import { hmacSha256, sameBytes } from './hmac.ts';
import { digits, jsonSample, uuid } from './sample-payload.ts';
import { anySecret, issuedBy } from './secret-rules.ts';
import type { SignatureScheme } from './signature-scheme.ts';
import { headerValue, invalid, valid } from './verification.ts';

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
export const shopifyScheme: SignatureScheme<'shopify'> = {
  id: 'shopify',
  headers: {
    writes: [SHOPIFY_SIGNATURE_HEADER],
    reads: [SHOPIFY_SIGNATURE_HEADER],
    signature: [SHOPIFY_SIGNATURE_HEADER],
  },
  customSignatureHeader: false,
  secret: {
    required: true,
    problem: anySecret,
    notRegenerable: issuedBy("Shopify (the app's client secret, or the store's webhook signing key)"),
  },
  timestamp: null,

  verify(input) {
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

  sign: ({ body, secret }) => [[SHOPIFY_SIGNATURE_HEADER, shopifySignature(secret, body)]],

  /** An orders/create event. */
  samplePayload({ random, nowMs }) {
    const iso = new Date(nowMs).toISOString();
    const orderId = digits(random, 13);
    return jsonSample(
      {
        id: orderId,
        admin_graphql_api_id: `gid://shopify/Order/${orderId}`,
        email: 'jon@example.com',
        created_at: iso,
        currency: 'USD',
        financial_status: 'paid',
        total_price: '20.00',
        test: true,
        line_items: [{ id: digits(random, 13), title: 'Hookscope test item', quantity: 1, price: '20.00' }],
      },
      [
        ['X-Shopify-Topic', 'orders/create'],
        ['X-Shopify-Shop-Domain', 'hookscope-test.myshopify.com'],
        ['X-Shopify-API-Version', '2024-07'],
        ['X-Shopify-Webhook-Id', uuid(random)],
        ['X-Shopify-Triggered-At', iso],
      ],
    );
  },
};
