import type { RuleCause, RuleContext } from '../remediation-types.ts';

/** The receiver refused the body by size (413) and kept its first bytes only. */
export function payloadTooLargeRule(ctx: RuleContext): RuleCause[] {
  if (ctx.log.verification.reason !== 'payload_too_large') return [];
  const limit = ctx.limits.maxBodyBytes;
  return [
    {
      code: 'payload_too_large',
      title: `The body (${ctx.log.size} bytes) is over the ${limit}-byte limit`,
      confidence: 1,
      evidence: [
        { label: 'Body size', value: `${ctx.log.size} bytes` },
        { label: 'Limit (maxBodyBytes)', value: `${limit} bytes` },
        { label: 'Bytes kept', value: String(ctx.log.body.length) },
        'The receiver answered 413 and did not verify the signature.',
      ],
      steps: [
        `Raise the limit: set HOOKSCOPE_MAX_BODY_BYTES (or maxBodyBytes in config.json) above ${ctx.log.size} and restart the engine.`,
        'Or send smaller payloads (many providers can send a thin event to fetch the full object by id).',
      ],
    },
  ];
}
