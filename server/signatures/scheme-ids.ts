/**
 * Every signature scheme Hookscope checks, which is also every endpoint
 * `validationType` (the endpoints feature takes its list from here, so the two can
 * never differ). The order is the one error messages and the OpenAPI enum show.
 * An id added here without its scheme object in registry.ts does not compile.
 */
export const SCHEME_IDS = ['stripe', 'hmac_sha256', 'none', 'github', 'shopify', 'slack', 'standard_webhooks'] as const;

export type SchemeId = (typeof SCHEME_IDS)[number];
