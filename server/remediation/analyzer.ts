import type { NamedFallbackRule, NamedRule, RuleCause, RuleContext } from './remediation-types.ts';
import type { Cause } from './remediation-schemas.ts';
import { FALLBACK_RULES, RULES } from './rules/all-rules.ts';
import { verificationSnippets } from './snippets.ts';

export interface RulesOutcome {
  summary: string;
  causes: Cause[];
}

/**
 * Runs every rule over the context: most confident cause first, with the
 * endpoint's snippets. A rule that throws (a body it cannot handle: the stored
 * bytes are whatever a sender chose) is skipped and named in the summary; the
 * others still answer, so one rule never turns an analysis into a 500.
 */
export function runRules(
  ctx: RuleContext,
  rules: readonly NamedRule[] = RULES,
  fallbacks: readonly NamedFallbackRule[] = FALLBACK_RULES,
): RulesOutcome {
  const skipped: string[] = [];
  const attempt = (name: string, run: () => RuleCause[]): RuleCause[] => {
    try {
      return run();
    } catch (e) {
      skipped.push(`${name} (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)})`);
      return [];
    }
  };
  const found: RuleCause[] = rules.flatMap((rule) => attempt(rule.name, () => rule.run(ctx)));
  for (const fallback of fallbacks) found.push(...attempt(fallback.name, () => fallback.run(ctx, found)));
  const snippets = verificationSnippets(ctx.endpoint.scheme, ctx.endpoint.signatureHeader);
  // Array.prototype.sort is stable: equal confidences keep the rules' order.
  const causes = found.sort((a, b) => b.confidence - a.confidence).map((c) => ({ ...c, snippets }));
  const note = skipped.length > 0 ? ` Skipped, as they could not handle this delivery: ${skipped.join('; ')}.` : '';
  return { summary: `${summarize(ctx, causes)}${note}`, causes };
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
  const more =
    causes.length > 1 ? ` (${causes.length - 1} more possible cause${causes.length > 2 ? 's' : ''} below)` : '';
  return `${what}. Most likely: ${top.title} (confidence ${Math.round(top.confidence * 100)}%)${more}.`;
}
