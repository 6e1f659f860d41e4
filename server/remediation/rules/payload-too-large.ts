import type { RuleCause, RuleContext } from '../remediation-types.ts';

/** The receiver refused the body by size (413): before reading it when its Content-Length said so. */
export function payloadTooLargeRule(ctx: RuleContext): RuleCause[] {
  if (ctx.log.verification.reason !== 'payload_too_large') return [];
  const limit = ctx.limits.maxBodyBytes;
  const declared = ctx.log.declaredSize;
  // The declared length is the size the sender meant; without one, what arrived before the cut.
  const size = declared ?? ctx.log.size;
  return [
    {
      code: 'payload_too_large',
      title: `The body (${declared !== null ? '' : 'over '}${size} bytes) is over the ${limit}-byte limit`,
      confidence: 1,
      evidence: [
        ...(declared !== null ? [{ label: 'Declared Content-Length', value: `${declared} bytes` }] : []),
        { label: 'Bytes received', value: `${ctx.log.size} bytes` },
        { label: 'Limit (maxBodyBytes)', value: `${limit} bytes` },
        { label: 'Bytes kept', value: String(ctx.log.body.length) },
        declared !== null
          ? 'The receiver answered 413 from the Content-Length, before reading the body, and did not verify the signature.'
          : 'The receiver answered 413 once the body grew past the limit and did not verify the signature.',
      ],
      steps: [
        `Raise the limit: set HOOKSCOPE_MAX_BODY_BYTES (or maxBodyBytes in config.json) above ${size} and restart the engine.`,
        'Or send smaller payloads (many providers can send a thin event to fetch the full object by id).',
      ],
    },
  ];
}
