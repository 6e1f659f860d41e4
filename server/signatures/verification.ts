import type { SchemeId } from './scheme-ids.ts';

export const VERIFICATION_REASONS = [
  'missing_header',
  'malformed_header',
  'no_matching_signature',
  'timestamp_outside_tolerance',
  'missing_secret',
  // The receiver stopped reading before verifying (it answered 413, 408 or 503).
  'payload_too_large',
  'request_timeout',
  'body_timeout',
  'server_busy',
] as const;
export type VerificationReason = (typeof VERIFICATION_REASONS)[number];

export interface VerificationInput {
  /** The exact bytes received, never parsed. */
  rawBody: Buffer;
  /** Lower-case names; repeated headers as arrays. */
  headers: Record<string, string | string[]>;
  /** Current first; a previous secret only while within its grace period. */
  secrets: { value: string; kind: 'current' | 'previous' }[];
  /** Per-endpoint header name (hmac_sha256), any case. */
  signatureHeader: string | null;
  /** Per-endpoint tolerance (schemes with a timestamp: stripe, slack, standard_webhooks); null means the default 300 s. */
  toleranceSeconds: number | null;
  nowMs: number;
}

export interface VerificationResult {
  scheme: SchemeId;
  result: 'valid' | 'invalid' | 'skipped';
  /** null when valid or skipped. */
  reason: VerificationReason | null;
  matchedSecret: 'current' | 'previous' | null;
  /** A short sentence for people when verification failed. */
  detail: string | null;
}

export const valid = (scheme: SchemeId, matchedSecret: 'current' | 'previous'): VerificationResult => ({
  scheme,
  result: 'valid',
  reason: null,
  matchedSecret,
  detail: null,
});

export const invalid = (scheme: SchemeId, reason: VerificationReason, detail: string): VerificationResult => ({
  scheme,
  result: 'invalid',
  reason,
  matchedSecret: null,
  detail,
});

/** The first value of a header (a repeated signature header is unusual; the first one counts). */
export function headerValue(headers: VerificationInput['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
