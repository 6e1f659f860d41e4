import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { bodyVariants } from './body-variants.ts';
import { probe, signatureFailed, signatureMatches } from './probe.ts';

/**
 * The signature is valid for a normalised variant of the body, not for the
 * bytes that arrived: the sender signed other bytes than it sent (or a proxy
 * or framework re-serialised the JSON on the way).
 */
export function bodyModifiedRule(ctx: RuleContext): RuleCause[] {
  if (!signatureFailed(ctx)) return [];
  for (const v of bodyVariants(ctx.log.body)) {
    if (!signatureMatches(probe(ctx, { rawBody: v.bytes }))) continue;
    return [
      {
        code: 'body_modified',
        title: `The signature was made over different bytes: ${v.description}`,
        confidence: 0.95,
        evidence: [
          `The signature verifies for ${v.description}, not for the exact bytes that arrived.`,
          { label: 'Variant', value: v.name },
          { label: 'Bytes received', value: String(ctx.log.body.length) },
          { label: 'Bytes signed', value: String(v.bytes.length) },
        ],
        steps: [
          'Sign exactly the bytes you send: serialise the payload once, sign that string, and send the same string.',
          'Check proxies or HTTP clients between the sender and Hookscope that re-serialise JSON or rewrite line endings.',
          'In your own handler, verify the raw body (express.raw / request.get_data()) before any JSON parsing: a parsed-and-re-serialised body never matches.',
        ],
      },
    ];
  }
  return [];
}
