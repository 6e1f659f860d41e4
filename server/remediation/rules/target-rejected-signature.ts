import type { ReplayRecord } from '../../replay/replay-types.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { failedReplays, replayEvidence } from './replay-failures.ts';

export const isSignatureRejection = (r: ReplayRecord): boolean =>
  r.status === 400 || r.status === 401 || r.status === 403;

/**
 * A signed delivery replayed as is carries its original signature and
 * timestamp; the target's own check refuses it (stale timestamp, or a local
 * secret that differs). ReplayRecord does not say whether the replay was
 * re-signed, so this is a strong suspicion rather than a proof.
 */
export function targetRejectedSignatureRule(ctx: RuleContext): RuleCause[] {
  if (ctx.endpoint.scheme === 'none') return [];
  const matching = failedReplays(ctx, isSignatureRejection);
  if (matching.length === 0) return [];
  return [
    {
      code: 'target_rejected_signature',
      title: `The target refused the replay with ${matching[0]!.status}: most likely its signature check`,
      confidence: 0.75,
      evidence: [
        ...replayEvidence(matching),
        `The endpoint is ${ctx.endpoint.scheme}: a replay sent without resign carries the original signature${ctx.endpoint.scheme === 'stripe' ? ' and timestamp, which a tolerance check refuses once it is old' : ''}.`,
      ],
      steps: [
        "Replay with resign enabled: Hookscope signs the body again with the endpoint's current secret and a fresh timestamp.",
        'Make sure your local handler uses the same secret as this Hookscope endpoint (e.g. STRIPE_WEBHOOK_SECRET / WEBHOOK_SECRET).',
        'Check the response body in the replay history: it usually says why the request was refused.',
      ],
    },
  ];
}
