import { decodeSignature, DEFAULT_HMAC_HEADER } from '../../signatures/hmac-sha256.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { headerText, probe, signatureMatches } from './probe.ts';

/**
 * hmac_sha256: the configured header is missing, but another header carries a
 * value that verifies with the endpoint's secret (proven) or at least looks
 * like an HMAC-SHA256 (suspected).
 */
export function wrongHeaderNameRule(ctx: RuleContext): RuleCause[] {
  if (ctx.endpoint.scheme !== 'hmac_sha256' || ctx.log.verification.reason !== 'missing_header') return [];
  const configured = ctx.endpoint.signatureHeader ?? DEFAULT_HMAC_HEADER;
  let lookalike: string | null = null;
  for (const [name, raw] of Object.entries(ctx.log.headers)) {
    const value = headerText(raw);
    if (!value || name === configured.toLowerCase()) continue;
    if (signatureMatches(probe(ctx, { signatureHeader: name }))) return [cause(configured, name, true)];
    if (lookalike === null && value.split(/[,\s]+/).some((v) => decodeSignature(v) !== null)) lookalike = name;
  }
  return lookalike ? [cause(configured, lookalike, false)] : [];
}

function cause(configured: string, found: string, verifies: boolean): RuleCause {
  return {
    code: 'wrong_header_name',
    title: `The signature arrives in ${found}, not in ${configured}`,
    confidence: verifies ? 0.96 : 0.6,
    evidence: [
      { label: 'Configured signatureHeader', value: configured },
      { label: 'Header carrying the signature', value: found },
      verifies
        ? `The value of ${found} verifies with the endpoint's secret.`
        : `The value of ${found} looks like an HMAC-SHA256 but does not verify with the endpoint's secret.`,
    ],
    steps: [
      `Set the endpoint's signatureHeader to ${found} (PATCH /api/endpoints/<id> { "signatureHeader": "${found}" }).`,
      `Or have the sender put its signature in ${configured}.`,
    ],
  };
}
