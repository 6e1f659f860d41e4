import { decodeLooseBase64 } from './signature-encoding.ts';
import { hmacSha256, sameBytes } from './hmac.ts';
import { genericSample } from './sample-payload.ts';
import { anySecret } from './secret-rules.ts';
import type { SignatureScheme } from './signature-scheme.ts';
import { headerValue, invalid, valid } from './verification.ts';

export const DEFAULT_HMAC_HEADER = 'X-Webhook-Signature';

/**
 * Decodes one signature as senders might write it: hex (either case: no single
 * provider fixes one, and the digest's bytes are what is compared), base64 or
 * base64url (padding optional), with an optional `sha256=` prefix. Only the
 * canonical text of SHA-256's 32 bytes counts, so a value is never misread as the
 * other encoding and a changed trailing base64 bit is not silently dropped.
 */
export function decodeSignature(raw: string): Buffer | null {
  const value = raw.trim().replace(/^sha256=/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  return decodeLooseBase64(value);
}

/**
 * The generic scheme for senders that follow no provider: HMAC-SHA256 of the raw
 * body with the secret, hex or base64, optional `sha256=`, in a header the endpoint
 * may name. The one scheme whose secret Hookscope may generate and rotate.
 */
export const hmacSha256Scheme: SignatureScheme<'hmac_sha256'> = {
  id: 'hmac_sha256',
  headers: { writes: [DEFAULT_HMAC_HEADER], reads: [DEFAULT_HMAC_HEADER], signature: [DEFAULT_HMAC_HEADER] },
  customSignatureHeader: true,
  secret: { required: true, problem: anySecret, notRegenerable: null },
  timestamp: null,

  verify(input) {
    const name = input.signatureHeader ?? DEFAULT_HMAC_HEADER;
    const header = headerValue(input.headers, name);
    if (header === undefined) return invalid('hmac_sha256', 'missing_header', `The ${name} header is missing.`);
    // Several signatures may be sent while a sender rotates keys: comma or space separated.
    const signatures = header
      .split(/[,\s]+/)
      .filter((s) => s.length > 0)
      .map(decodeSignature);
    const decoded = signatures.filter((s): s is Buffer => s !== null);
    if (decoded.length === 0) {
      return invalid(
        'hmac_sha256',
        'malformed_header',
        `${name} must be an HMAC-SHA256 in hex or base64, optionally prefixed sha256=.`,
      );
    }
    if (input.secrets.length === 0)
      return invalid('hmac_sha256', 'missing_secret', 'The endpoint has no signing secret.');
    for (const secret of input.secrets) {
      const expected = hmacSha256(secret.value, input.rawBody);
      if (decoded.some((sig) => sameBytes(sig, expected))) return valid('hmac_sha256', secret.kind);
    }
    return invalid(
      'hmac_sha256',
      'no_matching_signature',
      `The ${name} signature does not match an HMAC-SHA256 of the body with the endpoint's secret.`,
    );
  },

  sign: ({ body, secret, signatureHeader }) => [
    [signatureHeader ?? DEFAULT_HMAC_HEADER, `sha256=${hmacSha256(secret, body).toString('hex')}`],
  ],

  samplePayload: (ctx) => genericSample(ctx, true),
};
