import { DEFAULT_HMAC_HEADER } from '../../receiver/verifiers/hmac-sha256-verifier.ts';
import { PROVIDER_SIGNATURE_HEADERS } from '../../receiver/verifiers/provider-headers.ts';
import type { RuleContext } from '../remediation-types.ts';

/** The lower-case header names the endpoint's scheme reads its signature from. */
export function schemeSignatureHeaders(ctx: RuleContext): string[] {
  if (ctx.endpoint.scheme === 'hmac_sha256')
    return [(ctx.endpoint.signatureHeader ?? DEFAULT_HMAC_HEADER).toLowerCase()];
  const table = PROVIDER_SIGNATURE_HEADERS as Record<string, readonly string[]>;
  return [...(table[ctx.endpoint.scheme] ?? [])];
}
