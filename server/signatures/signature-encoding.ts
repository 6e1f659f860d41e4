/**
 * Strict decoders for the signature encodings. A value is accepted only in the
 * exact text its provider's own check would compare equal: GitHub, Slack and
 * Stripe compare lower-case hex strings, Shopify and Standard Webhooks compare
 * base64 strings. A lenient decoder would let a different text through (upper
 * case, or base64 whose unused trailing bits are set decodes to the same bytes
 * in Node), so Hookscope would call valid what the provider's library refuses.
 */

/** SHA-256's digest size: every scheme here signs with HMAC-SHA256. */
export const DIGEST_BYTES = 32;

const LOWER_HEX = /^[0-9a-f]*$/;
const BASE64_PADDED = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Lower-case hex of exactly `bytes` bytes; null for anything else (upper case included). */
export function decodeLowerHex(value: string, bytes = DIGEST_BYTES): Buffer | null {
  return value.length === bytes * 2 && LOWER_HEX.test(value) ? Buffer.from(value, 'hex') : null;
}

/** Padded standard base64 of exactly `bytes` bytes, in its one canonical text; null otherwise. */
export function decodeCanonicalBase64(value: string, bytes = DIGEST_BYTES): Buffer | null {
  if (!BASE64_PADDED.test(value)) return null;
  const decoded = Buffer.from(value, 'base64');
  return decoded.length === bytes && decoded.toString('base64') === value ? decoded : null;
}

/**
 * Base64 or base64url with optional padding, for senders that follow no one
 * provider (the generic scheme); still only the canonical text of the bytes, so
 * a changed trailing bit is refused rather than silently dropped by the decoder.
 */
export function decodeLooseBase64(value: string, bytes = DIGEST_BYTES): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return null;
  const unpadded = value.replace(/=+$/, '');
  const padded = unpadded.length % 4 === 0 ? unpadded : unpadded + '='.repeat(4 - (unpadded.length % 4));
  if (value !== unpadded && value !== padded) return null;
  const standard = unpadded.replace(/-/g, '+').replace(/_/g, '/');
  const decoded = Buffer.from(standard, 'base64');
  return decoded.length === bytes && decoded.toString('base64').replace(/=+$/, '') === standard ? decoded : null;
}
