import { ValidationError } from '../errors/app-errors.ts';

export const VALIDATION_TYPES = [
  'stripe',
  'hmac_sha256',
  'none',
  'github',
  'shopify',
  'slack',
  'standard_webhooks',
] as const;
export type ValidationType = (typeof VALIDATION_TYPES)[number];

// Keys are normalised: lower case, with '-', '_' and spaces removed.
const ALIASES: Record<string, ValidationType> = {
  stripe: 'stripe',
  github: 'github',
  gh: 'github',
  shopify: 'shopify',
  slack: 'slack',
  slackv0: 'slack',
  standardwebhooks: 'standard_webhooks',
  standardwebhook: 'standard_webhooks',
  svix: 'standard_webhooks',
  hmacsha256: 'hmac_sha256',
  hmac: 'hmac_sha256',
  generic: 'hmac_sha256',
  sha256: 'hmac_sha256',
  none: 'none',
  no: 'none',
  unsigned: 'none',
  off: 'none',
};

/** Accepts canonical values, case and `-`/`_` variants and aliases; answers the canonical value. */
export function parseValidationType(input: unknown): ValidationType {
  const key =
    typeof input === 'string'
      ? input
          .trim()
          .toLowerCase()
          .replace(/[-_\s]/g, '')
      : '';
  const found = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
  if (!found) {
    const got = typeof input === 'string' ? `"${input}"` : input === undefined ? 'nothing' : typeof input;
    throw new ValidationError(`validationType must be one of: ${VALIDATION_TYPES.join(', ')} (got ${got}).`, {
      field: 'validationType',
      allowed: [...VALIDATION_TYPES],
    });
  }
  return found;
}

export function requiresSecret(t: ValidationType): boolean {
  return t !== 'none';
}

/** The schemes that sign a timestamp, so a per-endpoint `toleranceSeconds` means something. */
export const TIMESTAMPED_TYPES: readonly ValidationType[] = ['stripe', 'slack', 'standard_webhooks'];

export function hasTimestamp(t: ValidationType): boolean {
  return TIMESTAMPED_TYPES.includes(t);
}

/** Alias spellings worth telling people about (docs, the OpenAPI description). */
export const DOCUMENTED_ALIASES =
  'hmac, hmac-sha256, generic -> hmac_sha256; standard-webhooks, standardwebhooks, svix -> standard_webhooks; GitHub, gh -> github';
