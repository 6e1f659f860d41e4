import { isoTime } from '../../support/clock.ts';
import type { RuleCause, RuleContext } from '../remediation-types.ts';
import { formatDuration } from './durations-text.ts';
import { signedTimestamp } from './signed-timestamp.ts';

const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The signature is valid but its timestamp is outside the tolerance: a stale
 * delivery (an old event re-sent as is) or a sender clock running ahead.
 */
export function timestampSkewRule(ctx: RuleContext): RuleCause[] {
  if (ctx.log.verification.reason !== 'timestamp_outside_tolerance') return [];
  const tolerance = ctx.endpoint.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const signedAt = signedTimestamp(ctx.endpoint.scheme, ctx.log.headers);
  const evidence: RuleCause['evidence'] = [
    'The signature is valid for the body and secret; only the time check failed.',
  ];
  let title = 'The signed timestamp is outside the tolerance';
  let ahead = false;
  if (signedAt !== null) {
    const skew = Math.floor(ctx.log.receivedAt / 1000) - signedAt;
    ahead = skew < 0;
    title = ahead
      ? `The sender's clock is ${formatDuration(-skew * 1000)} ahead (timestamp in the future)`
      : `Stale delivery: signed ${formatDuration(skew * 1000)} before it arrived`;
    evidence.push(
      { label: 'Signed at', value: `${isoTime(signedAt * 1000)} (t=${signedAt})` },
      { label: 'Received at', value: isoTime(ctx.log.receivedAt) },
      { label: 'Skew', value: ahead ? `${-skew} s in the future` : `${skew} s old` },
      { label: 'Tolerance', value: `${tolerance} s` },
    );
  } else if (ctx.log.verification.detail) {
    evidence.push(ctx.log.verification.detail);
  }
  const steps = ahead
    ? [
        "Check the sender's clock: enable NTP (timedatectl set-ntp true, or the OS time settings) on the machine that signs.",
        "Check this machine's clock the same way: the skew is the difference between the two.",
      ]
    : [
        'If this is an old event re-sent as is, replay it from Hookscope with resign enabled: it is signed again with a fresh timestamp.',
        "If deliveries really queue that long, raise the endpoint's toleranceSeconds (stripe) or your handler's tolerance.",
        'Check that both clocks are in sync (NTP).',
      ];
  return [{ code: 'timestamp_skew', title, confidence: signedAt !== null ? 0.97 : 0.85, evidence, steps }];
}
