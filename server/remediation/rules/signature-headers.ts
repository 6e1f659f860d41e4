import { signatureHeaderNames } from '../../signatures/registry.ts';
import type { RuleContext } from '../remediation-types.ts';

/** The lower-case header names the endpoint's scheme reads its signature from. */
export function schemeSignatureHeaders(ctx: RuleContext): string[] {
  return signatureHeaderNames(ctx.endpoint.scheme, ctx.endpoint.signatureHeader);
}
