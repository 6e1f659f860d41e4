import type { Random } from '../support/random.ts';
import type { SchemeId } from './scheme-ids.ts';
import type { VerificationInput, VerificationResult } from './verification.ts';

/**
 * One provider's signing scheme, everything Hookscope knows about it in one
 * object: how a delivery is checked (the receiver, diagnose, remediation's probes),
 * how one is signed (replay's `resign`, the "send a signed test webhook" action),
 * the headers involved, a realistic sample, and what its secret must be. The
 * registry holds exactly one per endpoint type.
 */
export interface SignatureScheme<Id extends SchemeId = SchemeId> {
  /** The endpoint `validationType` this scheme serves. */
  readonly id: Id;
  readonly headers: SchemeHeaders;
  /** Whether an endpoint may name its own signature header (`signatureHeader`): only the generic scheme. */
  readonly customSignatureHeader: boolean;
  readonly secret: SecretRules;
  /** How the scheme signs a time, or null when it signs none (then `toleranceSeconds` means nothing). */
  readonly timestamp: TimestampRules | null;
  verify(input: VerificationInput): VerificationResult;
  /** Headers that make the provider's own verification accept `body` now. */
  sign(input: SignInput): SignedHeaders;
  /** A first delivery shaped like the provider's own (a Stripe event, GitHub's ping, ...). */
  samplePayload(ctx: SampleContext): SamplePayload;
}

/** Header names in the provider's usual case; on the wire any case matches. */
export interface SchemeHeaders {
  /** What `sign` writes, in this order (the generic scheme: its default name, unless the endpoint names another). */
  writes: readonly string[];
  /** What `verify` reads. */
  reads: readonly string[];
  /**
   * Those of `reads` that carry a signature: one of them on a delivery says it was
   * signed this provider's way (remediation's wrong_provider; share redaction must
   * hide them all). Includes names only recognised, never accepted (GitHub's SHA-1).
   */
  signature: readonly string[];
}

export interface SecretRules {
  /** Whether an endpoint of this scheme must have a secret (all but `none`). */
  required: boolean;
  /** Why this secret can sign nothing under the scheme (a sentence for the 400), or null when it can. */
  problem(secret: string): string | null;
  /**
   * Why Hookscope cannot make a new secret for such an endpoint (a sentence for the
   * 409: the sender issues it), or null when it may (only the generic scheme).
   */
  notRegenerable: string | null;
}

export interface TimestampRules {
  /** The signed time (Unix seconds) from a delivery's lower-case headers; null when absent or unreadable. */
  read(headers: Record<string, string | string[]>): number | null;
  /**
   * Whether a timestamp ahead of now by more than the tolerance is refused too.
   * Standard Webhooks and Slack (absolute difference) refuse it; Stripe's SDK checks only age.
   */
  future: boolean;
}

export interface SignInput {
  /** The exact bytes that will be sent. */
  body: Buffer;
  /** The endpoint's current secret. */
  secret: string;
  nowMs: number;
  /** Per-endpoint header name (hmac_sha256). */
  signatureHeader: string | null;
  /**
   * A message id for schemes that sign one (standard_webhooks); when absent a fresh
   * `msg_` + random UUID is made. Pass one to keep the result deterministic, or the
   * original `webhook-id` to keep a replay's idempotency key.
   */
  messageId?: string;
}

/**
 * Headers to set on an outgoing request so the provider's own verification
 * accepts it now. Names are given in the provider's usual case; a caller replaces
 * any header of the same name (any case) with these.
 */
export type SignedHeaders = [name: string, value: string][];

export interface SamplePayload {
  body: string;
  contentType: string;
  /** Event headers the provider sends alongside the signature (never the signature itself). */
  headers: [string, string][];
}

export interface SampleContext {
  endpointId: string;
  nowMs: number;
  random: Random;
  /** Where the sample is going, for payloads that carry their own hook URL (GitHub's ping). */
  receiverUrl: string;
}
