import { randomUUID } from 'node:crypto';
import { assertNever } from '../../support/assert-never.ts';
import { GITHUB_SIGNATURE_HEADER, githubSignatureHeader } from './github-verifier.ts';
import { DEFAULT_HMAC_HEADER } from './hmac-sha256-verifier.ts';
import { SHOPIFY_SIGNATURE_HEADER, shopifySignature } from './shopify-verifier.ts';
import { hmacSha256, stripeSignatureHeader } from './signing.ts';
import { SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER, slackSignature } from './slack-verifier.ts';
import { standardWebhooksKey, standardWebhooksSignatureHeader } from './standard-webhooks-verifier.ts';
import type { VerificationScheme } from './verifier-types.ts';

export interface SignInput {
  /** The exact bytes that will be sent. */
  body: Buffer;
  /** The endpoint's current secret. */
  secret: string;
  nowMs: number;
  /** Per-endpoint header name (hmac_sha256). */
  signatureHeader: string | null;
  /**
   * A message id for schemes that sign one (standard_webhooks); when absent a fresh
   * `msg_` + random UUID is made. Pass one to keep the result deterministic, or the
   * original `webhook-id` to keep a replay's idempotency key.
   */
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
  sign: ({ body, secret, nowMs }) => [
    ['Stripe-Signature', stripeSignatureHeader(secret, body, Math.floor(nowMs / 1000))],
  ],
};

const hmacSha256Signer: Signer = {
  scheme: 'hmac_sha256',
  sign: ({ body, secret, signatureHeader }) => [
    [signatureHeader ?? DEFAULT_HMAC_HEADER, `sha256=${hmacSha256(secret, body).toString('hex')}`],
  ],
};

const githubSigner: Signer = {
  scheme: 'github',
  sign: ({ body, secret }) => [[GITHUB_SIGNATURE_HEADER, githubSignatureHeader(secret, body)]],
};

const shopifySigner: Signer = {
  scheme: 'shopify',
  sign: ({ body, secret }) => [[SHOPIFY_SIGNATURE_HEADER, shopifySignature(secret, body)]],
};

const slackSigner: Signer = {
  scheme: 'slack',
  sign: ({ body, secret, nowMs }) => {
    const timestamp = String(Math.floor(nowMs / 1000));
    return [
      [SLACK_TIMESTAMP_HEADER, timestamp],
      [SLACK_SIGNATURE_HEADER, `v0=${slackSignature(secret, timestamp, body).toString('hex')}`],
    ];
  },
};

const standardWebhooksSigner: Signer = {
  scheme: 'standard_webhooks',
  sign: ({ body, secret, nowMs, messageId }) => {
    const key = standardWebhooksKey(secret);
    // Endpoints refuse such a secret on create, so this only guards against stored data from elsewhere.
    if (!key)
      throw new Error('standard_webhooks secret is not whsec_<base64> or base64; nothing can be signed with it.');
    const id = messageId ?? `msg_${randomUUID().replace(/-/g, '')}`;
    const timestamp = Math.floor(nowMs / 1000);
    return [
      ['webhook-id', id],
      ['webhook-timestamp', String(timestamp)],
      ['webhook-signature', standardWebhooksSignatureHeader(key, id, timestamp, body)],
    ];
  },
};

const noneSigner: Signer = { scheme: 'none', sign: () => [] };

export function signerFor(scheme: VerificationScheme): Signer {
  switch (scheme) {
    case 'stripe':
      return stripeSigner;
    case 'github':
      return githubSigner;
    case 'shopify':
      return shopifySigner;
    case 'slack':
      return slackSigner;
    case 'standard_webhooks':
      return standardWebhooksSigner;
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
