import { invalid, type VerificationInput, type VerificationResult, type VerificationScheme } from './verifier-types.ts';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface ToleranceRule {
  /**
   * Whether a timestamp ahead of now by more than the tolerance is refused.
   * Standard Webhooks and Slack (absolute difference) refuse it; Stripe's SDK checks only age.
   */
  future: boolean;
}

/**
 * The replay-window check shared by the timestamped schemes, in whole seconds
 * (now floored, as Stripe's and Standard Webhooks' libraries do): a timestamp
 * exactly `tolerance` seconds away is still accepted. Answers null when within it.
 */
export function checkTolerance(
  scheme: VerificationScheme,
  input: Pick<VerificationInput, 'toleranceSeconds' | 'nowMs'>,
  timestampSeconds: number,
  rule: ToleranceRule,
): VerificationResult | null {
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const age = Math.floor(input.nowMs / 1000) - timestampSeconds;
  if (age > tolerance) {
    return invalid(
      scheme,
      'timestamp_outside_tolerance',
      `The timestamp is ${age} s old; the tolerance is ${tolerance} s.`,
    );
  }
  if (rule.future && -age > tolerance) {
    return invalid(
      scheme,
      'timestamp_outside_tolerance',
      `The timestamp is ${-age} s in the future; the tolerance is ${tolerance} s.`,
    );
  }
  return null;
}
