import type { ReplayRecord } from '../../replay/replay-types.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { failedReplays, replayEvidence } from './replay-failures.ts';
import { isSignatureRejection } from './target-rejected-signature.ts';

/** Any other error status: 5xx (the handler failed) and 4xx other than a signature refusal. */
export const isTargetError = (r: ReplayRecord): boolean =>
  r.status !== null && r.status >= 400 && !isSignatureRejection(r);

export function targetErrorRule(ctx: RuleContext): RuleCause[] {
  const matching = failedReplays(ctx, isTargetError);
  if (matching.length === 0) return [];
  const status = matching[0]!.status!;
  const serverError = status >= 500;
  return [
    {
      code: 'target_error',
      title: serverError ? `Your handler failed with ${status}` : `The target answered ${status}`,
      confidence: serverError ? 0.9 : 0.7,
      evidence: replayEvidence(matching),
      steps: serverError
        ? [
            "Look at your dev server's console for the exception thrown while handling this delivery.",
            'Replay it again after fixing: the same bytes are sent, so the failure reproduces exactly.',
            'Check the response body in the replay history for the error message.',
          ]
        : [
            status === 404 || status === 405
              ? 'Check the target path and method: the route your handler listens on must match the replay target.'
              : 'Read the response body in the replay history: the target says why it refused the request.',
            'Replay again after fixing.',
          ],
    },
  ];
}
