import { githubScheme } from './github.ts';
import { hmacSha256Scheme } from './hmac-sha256.ts';
import { noneScheme } from './none.ts';
import type { SchemeId } from './scheme-ids.ts';
import { shopifyScheme } from './shopify.ts';
import type { SignatureScheme, SignedHeaders, SignInput } from './signature-scheme.ts';
import { slackScheme } from './slack.ts';
import { standardWebhooksScheme } from './standard-webhooks.ts';
import { stripeScheme } from './stripe.ts';
import type { VerificationInput, VerificationResult } from './verification.ts';

/**
 * The one table from endpoint type to scheme. Its type makes it exhaustive and
 * exact: a scheme id without an entry, an entry for no id, or an entry whose `id`
 * differs from its key does not compile. Every caller (receiver, test delivery,
 * replay's resign, diagnose, remediation) goes through it.
 *
 * The order is the one schemes are tried in when a delivery carries several
 * providers' signature headers (remediation's wrong_provider lists them so).
 */
const SCHEMES: { readonly [Id in SchemeId]: SignatureScheme<Id> } = {
  stripe: stripeScheme,
  github: githubScheme,
  shopify: shopifyScheme,
  slack: slackScheme,
  standard_webhooks: standardWebhooksScheme,
  hmac_sha256: hmacSha256Scheme,
  none: noneScheme,
};

export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = Object.values(SCHEMES);

export function schemeFor(id: SchemeId): SignatureScheme {
  // A stored value from elsewhere (not a SchemeId after all) must fail loudly, not as undefined later.
  if (!Object.hasOwn(SCHEMES, id)) throw new Error(`unexpected signature scheme ${String(id)}`);
  return SCHEMES[id];
}

export function verify(id: SchemeId, input: VerificationInput): VerificationResult {
  return schemeFor(id).verify(input);
}

export function sign(id: SchemeId, input: SignInput): SignedHeaders {
  return schemeFor(id).sign(input);
}

/**
 * The lower-case names an endpoint of this scheme reads its signature from: the
 * endpoint's own `signatureHeader` where the scheme lets it name one, else the
 * scheme's signature headers.
 */
export function signatureHeaderNames(id: SchemeId, configured: string | null): string[] {
  const scheme = schemeFor(id);
  const names = scheme.customSignatureHeader && configured !== null ? [configured] : scheme.headers.signature;
  return names.map((n) => n.toLowerCase());
}

/** Schemes whose signature header is among these header names (any case): who seems to have signed a delivery. */
export function providersPresent(headerNames: Iterable<string>): SchemeId[] {
  const names = new Set([...headerNames].map((n) => n.toLowerCase()));
  return SIGNATURE_SCHEMES.filter((s) => s.headers.signature.some((h) => names.has(h.toLowerCase()))).map((s) => s.id);
}
