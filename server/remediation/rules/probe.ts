import { verify } from '../../signatures/registry.ts';
import type { VerificationInput, VerificationResult } from '../../signatures/verification.ts';
import type { RuleContext } from '../remediation-types.ts';

/** 100 years: a tolerance no timestamp falls outside, so a probe tests the signature alone. */
const IGNORE_TIME_SECONDS = 100 * 365 * 86_400;

/**
 * Re-runs the endpoint's own verifier (whatever scheme it is, through the
 * registry) on the stored delivery with one thing changed: another body,
 * other headers, other secrets. Time is ignored unless asked, so a probe
 * answers "do these bytes carry a signature made with this secret?".
 */
export function probe(ctx: RuleContext, change: Partial<VerificationInput> = {}): VerificationResult | null {
  const input: VerificationInput = {
    rawBody: ctx.log.body,
    headers: ctx.log.headers,
    secrets: ctx.endpoint.secrets,
    signatureHeader: ctx.endpoint.signatureHeader,
    toleranceSeconds: IGNORE_TIME_SECONDS,
    nowMs: ctx.log.receivedAt,
    ...change,
  };
  if (input.secrets.length === 0) return null;
  try {
    return verify(ctx.endpoint.scheme, input);
  } catch {
    // A scheme that cannot read this input at all: nothing can be proven with it.
    return null;
  }
}

/**
 * The signature matched a secret. A verifier that checks the signature before
 * the time says timestamp_outside_tolerance only once the signature is right,
 * so that counts too (for verifiers that ignore the probe's wide tolerance).
 */
export const signatureMatches = (r: VerificationResult | null): boolean =>
  r !== null && (r.result === 'valid' || r.reason === 'timestamp_outside_tolerance');

/** Reasons the receiver gives when it stopped reading before it could verify. */
const REFUSED: readonly (string | null)[] = ['payload_too_large', 'request_timeout', 'body_timeout', 'server_busy'];

/** Verification failed on the signature itself (not a body the receiver refused or cut). */
export const signatureFailed = (ctx: RuleContext): boolean =>
  ctx.log.verification.result === 'invalid' && !REFUSED.includes(ctx.log.verification.reason) && !ctx.log.truncated;

export const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** A short, safe rendering of a long value for evidence. */
export const shorten = (s: string, max = 80): string => (s.length > max ? `${s.slice(0, max)}…` : s);
