import { ValidationError } from '../errors/app-errors.ts';
import { schemeFor, SIGNATURE_SCHEMES } from '../signatures/registry.ts';
import { SCHEME_IDS, type SchemeId } from '../signatures/scheme-ids.ts';

/** An endpoint's validationType is the id of the signature scheme that checks its deliveries. */
export const VALIDATION_TYPES = SCHEME_IDS;
export type ValidationType = SchemeId;

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
  return schemeFor(t).secret.required;
}

/** The schemes that sign a timestamp, so a per-endpoint `toleranceSeconds` means something. */
export const TIMESTAMPED_TYPES: readonly ValidationType[] = SIGNATURE_SCHEMES.filter((s) => s.timestamp !== null).map(
  (s) => s.id,
);

export function hasTimestamp(t: ValidationType): boolean {
  return schemeFor(t).timestamp !== null;
}

/** Alias spellings worth telling people about (docs, the OpenAPI description). */
export const DOCUMENTED_ALIASES =
  'hmac, hmac-sha256, generic -> hmac_sha256; standard-webhooks, standardwebhooks, svix -> standard_webhooks; GitHub, gh -> github';
