import { UNSAFE_SUB_PATH } from '../../replay/replay-types.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { failedReplays, replayEvidence } from './replay-failures.ts';

/**
 * The forwarder did not send the delivery: its sub-path could lead outside the
 * forwardUrl. A fact recorded by the forwarder, not a guess.
 */
export function unsafeSubPathRule(ctx: RuleContext): RuleCause[] {
  const matching = failedReplays(ctx, (r) => r.error?.code === UNSAFE_SUB_PATH);
  if (matching.length === 0) return [];
  return [
    {
      code: 'unsafe_sub_path',
      title: "The forward was not sent: the delivery's sub-path could lead outside the forward URL",
      confidence: 1,
      evidence: replayEvidence(matching),
      steps: [
        'Nothing reached your server. Hookscope never forwards a sub-path with dot segments in any spelling (../, %2e%2e, double-encoded, overlong UTF-8 such as %c0%ae, %u002e, fullwidth dots), backslashes or encoded control characters: a server that decodes them could route the request anywhere, not only to the webhook handler.',
        'Webhook providers do not send such paths. Check where this delivery came from: most signatures cover only the body, so a captured delivery re-sent with a crafted path still verifies.',
        'If the path is really meant, replay the delivery by hand to the exact target URL you want.',
      ],
    },
  ];
}
