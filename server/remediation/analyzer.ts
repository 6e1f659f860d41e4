import type { Cause, RuleCause, RuleContext } from './remediation-types.ts';
import { FALLBACK_RULES, RULES } from './rules/all-rules.ts';
import { verificationSnippets } from './snippets.ts';

export interface RulesOutcome {
  summary: string;
  causes: Cause[];
}

/** Runs every rule over the context: most confident cause first, with the endpoint's snippets. */
export function runRules(ctx: RuleContext): RulesOutcome {
  const found: RuleCause[] = RULES.flatMap((rule) => rule(ctx));
  for (const fallback of FALLBACK_RULES) found.push(...fallback(ctx, found));
  const snippets = verificationSnippets(ctx.endpoint.scheme, ctx.endpoint.signatureHeader);
  // Array.prototype.sort is stable: equal confidences keep the rules' order.
  const causes = found.sort((a, b) => b.confidence - a.confidence).map((c) => ({ ...c, snippets }));
  return { summary: summarize(ctx, causes), causes };
}

function summarize(ctx: RuleContext, causes: Cause[]): string {
  const v = ctx.log.verification;
  const what =
    ctx.log.status === 'failed'
      ? `Verification (${v.scheme}) failed with ${v.reason ?? 'invalid'}`
      : 'The delivery was accepted but a replay or forward of it failed';
  if (causes.length === 0) {
    return `${what}; no rule could prove a cause from the stored bytes.${v.detail ? ` ${v.detail}` : ''}`;
  }
  const top = causes[0]!;
  const more = causes.length > 1 ? ` (${causes.length - 1} more possible cause${causes.length > 2 ? 's' : ''} below)` : '';
  return `${what}. Most likely: ${top.title} (confidence ${Math.round(top.confidence * 100)}%)${more}.`;
}
