/**
 * The headers each signing scheme puts its signature in (lower case), so that a
 * delivery can be recognised as another provider's: remediation says "this is a
 * GitHub delivery sent to a Stripe endpoint" from it. Schemes listed here may be
 * newer than the verifiers (the table is data, not behaviour).
 */
export const PROVIDER_SIGNATURE_HEADERS = {
  stripe: ['stripe-signature'],
  github: ['x-hub-signature-256', 'x-hub-signature'],
  shopify: ['x-shopify-hmac-sha256'],
  slack: ['x-slack-signature'],
  standard_webhooks: ['webhook-signature', 'svix-signature'],
  hmac_sha256: ['x-webhook-signature'],
} as const satisfies Record<string, readonly string[]>;

export type SignedProvider = keyof typeof PROVIDER_SIGNATURE_HEADERS;

/** Providers whose signature header is present among these lower-case header names. */
export function providersPresent(headerNames: Iterable<string>): SignedProvider[] {
  const names = new Set([...headerNames].map((n) => n.toLowerCase()));
  return (Object.keys(PROVIDER_SIGNATURE_HEADERS) as SignedProvider[]).filter((p) =>
    PROVIDER_SIGNATURE_HEADERS[p].some((h) => names.has(h)),
  );
}
