import { invalid, type VerificationInput, type VerificationResult, type VerificationScheme } from './verifier-types.ts';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The replay-window check shared by the timestamped schemes, past and future alike
 * (a clock far ahead makes the window meaningless). Answers null when within it.
 */
export function checkTolerance(
  scheme: VerificationScheme,
  input: Pick<VerificationInput, 'toleranceSeconds' | 'nowMs'>,
  timestampSeconds: number,
): VerificationResult | null {
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const age = Math.floor(input.nowMs / 1000) - timestampSeconds;
  if (age > tolerance) {
    return invalid(scheme, 'timestamp_outside_tolerance', `The timestamp is ${age} s old; the tolerance is ${tolerance} s.`);
  }
  if (-age > tolerance) {
    return invalid(scheme, 'timestamp_outside_tolerance', `The timestamp is ${-age} s in the future; the tolerance is ${tolerance} s.`);
  }
  return null;
}
