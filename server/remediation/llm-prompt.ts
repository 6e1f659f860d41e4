import type { RuleContext } from './remediation-types.ts';
import type { Cause } from './remediation-schemas.ts';

const BODY_PREVIEW_CHARS = 200;

export const LLM_SYSTEM_PROMPT =
  'You explain webhook delivery failures to a developer. You are given facts that a deterministic ' +
  'rule engine proved from the stored request. Explain in plain prose, in at most 150 words, what went ' +
  'wrong and what to do first. Do not invent facts beyond those given.';

/**
 * The facts the model sees: what was proven, the header names, a short body
 * preview. Never a secret (any secret text that slipped into the facts is
 * masked) and never the whole body.
 */
export function llmFacts(ctx: RuleContext, summary: string, causes: Cause[]): string {
  const body = ctx.log.body.toString('utf8');
  const facts = {
    summary,
    scheme: ctx.endpoint.scheme,
    verification: {
      result: ctx.log.verification.result,
      reason: ctx.log.verification.reason,
      detail: ctx.log.verification.detail,
    },
    request: {
      method: ctx.log.method,
      headerNames: Object.keys(ctx.log.headers),
      size: ctx.log.size,
      bodyPreview: body.length > BODY_PREVIEW_CHARS ? `${body.slice(0, BODY_PREVIEW_CHARS)}…` : body,
    },
    causes: causes.map(({ code, title, confidence, evidence, steps }) => ({
      code,
      title,
      confidence,
      evidence,
      steps,
    })),
  };
  return mask(JSON.stringify(facts, null, 2), ctx);
}

function mask(text: string, ctx: RuleContext): string {
  const secrets = [...ctx.endpoint.secrets.map((s) => s.value), ctx.endpoint.previous?.value]
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  let out = text;
  for (const s of secrets) out = out.split(s).join('[secret]');
  return out;
}
