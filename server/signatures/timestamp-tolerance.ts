import type { SchemeId } from './scheme-ids.ts';
import type { TimestampRules } from './signature-scheme.ts';
import { invalid, type VerificationInput, type VerificationResult } from './verification.ts';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Unix seconds as a header carries them: digits only. */
export function parseUnixSeconds(value: string): number | null {
  const v = value.trim();
  return /^\d{1,12}$/.test(v) ? Number(v) : null;
}

/**
 * The replay-window check shared by the timestamped schemes, in whole seconds
 * (now floored, as Stripe's and Standard Webhooks' libraries do): a timestamp
 * exactly `tolerance` seconds away is still accepted. Answers null when within it.
 */
export function checkTolerance(
  scheme: SchemeId,
  input: Pick<VerificationInput, 'toleranceSeconds' | 'nowMs'>,
  timestampSeconds: number,
  rule: Pick<TimestampRules, 'future'>,
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
