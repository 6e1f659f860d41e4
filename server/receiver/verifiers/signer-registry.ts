import { assertNever } from '../../support/assert-never.ts';
import { DEFAULT_HMAC_HEADER } from './hmac-sha256-verifier.ts';
import { hmacSha256, stripeSignatureHeader } from './signing.ts';
import type { VerificationScheme } from './verifier-types.ts';

export interface SignInput {
  /** The exact bytes that will be sent. */
  body: Buffer;
  /** The endpoint's current secret. */
  secret: string;
  nowMs: number;
  /** Per-endpoint header name (hmac_sha256). */
  signatureHeader: string | null;
  /** A message id for schemes that sign one (standard_webhooks); a fresh one is made when absent. */
  messageId?: string;
}

/**
 * Headers to set on an outgoing request so the provider's own verification
 * accepts it now: replay's `resign` and the "send a signed test webhook" action.
 * Names are given in the provider's usual case; a caller replaces any header of
 * the same name (any case) with these.
 */
export type SignedHeaders = [name: string, value: string][];

export interface Signer {
  readonly scheme: VerificationScheme;
  sign(input: SignInput): SignedHeaders;
}

const stripeSigner: Signer = {
  scheme: 'stripe',
  sign: ({ body, secret, nowMs }) => [['Stripe-Signature', stripeSignatureHeader(secret, body, Math.floor(nowMs / 1000))]],
};

const hmacSha256Signer: Signer = {
  scheme: 'hmac_sha256',
  sign: ({ body, secret, signatureHeader }) => [
    [signatureHeader ?? DEFAULT_HMAC_HEADER, `sha256=${hmacSha256(secret, body).toString('hex')}`],
  ],
};

const noneSigner: Signer = { scheme: 'none', sign: () => [] };

export function signerFor(scheme: VerificationScheme): Signer {
  switch (scheme) {
    case 'stripe':
      return stripeSigner;
    case 'hmac_sha256':
      return hmacSha256Signer;
    case 'none':
      return noneSigner;
    default:
      return assertNever(scheme, 'signing scheme');
  }
}

export function sign(scheme: VerificationScheme, input: SignInput): SignedHeaders {
  return signerFor(scheme).sign(input);
}

