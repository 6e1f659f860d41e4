import { isoTime } from '../../support/clock.ts';
import { formatDuration } from './durations-text.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { probe, signatureFailed, signatureMatches } from './probe.ts';

/**
 * The sender still signs with the secret a regenerate or a set-secret replaced, and the
 * delivery arrived after that secret's grace period: proven when the
 * signature verifies with the previous secret.
 */
export function previousSecretRule(ctx: RuleContext): RuleCause[] {
  const prev = ctx.endpoint.previous;
  // An erased secret (its grace ended before a checkpoint) proves nothing; wrong_secret mentions the rotation.
  if (!prev || prev.value === null || !signatureFailed(ctx)) return [];
  // Before its grace ended the previous secret was accepted; a failure then has another cause.
  if (ctx.log.receivedAt < prev.expiredAt) return [];
  const value = prev.value;
  const r = probe(ctx, { secrets: [{ value, kind: 'current' }] });
  if (!signatureMatches(r)) return [];

  const evidence: RuleCause['evidence'] = [
    "The signature verifies with the endpoint's previous secret, not with the current one.",
  ];
  if (prev.replacedAt !== null) evidence.push({ label: 'Secret rotated at', value: isoTime(prev.replacedAt) });
  evidence.push({ label: 'Previous secret accepted until', value: isoTime(prev.expiredAt) });
  evidence.push({
    label: 'Delivery received at',
    value: `${isoTime(ctx.log.receivedAt)} (${formatDuration(ctx.log.receivedAt - prev.expiredAt)} after the grace period ended)`,
  });
  return [
    {
      code: 'previous_secret',
      title: 'The sender still signs with the rotated (previous) secret',
      confidence: 0.97,
      evidence,
      steps: [
        "Update the sender to the endpoint's current secret (the one you set, or the one the regenerate-secret response returned).",
        'If the sender cannot change right away, set the old value again (PUT /api/endpoints/<id>/secret, `hookscope endpoints set-secret`), then roll over within the grace period.',
        'Replay this delivery with resign enabled to test your handler with the current secret.',
      ],
    },
  ];
}
