import { UNSAFE_SUB_PATH, type ReplayRecord } from '../../replay/replay-types.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { failedReplays, hostPort, replayEvidence } from './replay-failures.ts';

// An UNSAFE_SUB_PATH message quotes the sender's path: its words prove nothing.
export const isTimeout = (r: ReplayRecord): boolean =>
  r.error !== null &&
  (r.error.code === 'TARGET_TIMEOUT' ||
    (r.error.code !== UNSAFE_SUB_PATH && /timed? ?out|ETIMEDOUT/i.test(r.error.message)));

/** The target accepted the connection but did not answer in time. */
export function targetTimeoutRule(ctx: RuleContext): RuleCause[] {
  const matching = failedReplays(ctx, isTimeout);
  if (matching.length === 0) return [];
  return [
    {
      code: 'target_timeout',
      title: `${hostPort(matching[0]!.targetUrl)} did not answer in time`,
      confidence: 0.9,
      evidence: replayEvidence(matching),
      steps: [
        'Answer the webhook quickly (2xx first) and do slow work afterwards, in a queue or background job: providers time out too.',
        'Check whether the handler hangs (an awaited promise that never settles, a breakpoint, a locked database).',
        'For a slow local debug session, replay with a larger timeoutMs.',
      ],
    },
  ];
}
