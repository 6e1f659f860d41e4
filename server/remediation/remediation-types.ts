import type { LogVerification } from '../logs/logs-schemas.ts';
import type { SchemeId } from '../signatures/scheme-ids.ts';
import type { ReplayRecord } from '../replay/replay-types.ts';
import type { Cause } from './remediation-schemas.ts';

export type { CauseCode } from './cause-codes.ts';

/** The receiver's limits, so a refusal is explained with the setting that caused it. */
export interface ReceiverLimitsForRules {
  maxBodyBytes: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  maxInFlightBodyBytes: number;
}

/** A cause as a rule returns it; the service attaches the endpoint's snippets. */
export type RuleCause = Omit<Cause, 'snippets'>;

/** Everything a rule may look at; plain data so rules are pure and tested without an engine. */
export interface RuleContext {
  log: {
    id: string;
    endpointId: string;
    method: string;
    /** Milliseconds since the epoch. */
    receivedAt: number;
    status: 'success' | 'failed';
    verification: LogVerification;
    /** Lower-case names; repeated headers as arrays. */
    headers: Record<string, string | string[]>;
    /** The stored bytes (the first bytes only when `truncated`). */
    body: Buffer;
    truncated: boolean;
    /** Bytes that arrived (up to where the receiver stopped reading a refused body). */
    size: number;
    /** The Content-Length the sender declared; null when it sent none. */
    declaredSize: number | null;
  };
  endpoint: {
    id: string;
    scheme: SchemeId;
    /** The current secret (kind `current`); empty for unsigned endpoints. */
    secrets: { value: string; kind: 'current' | 'previous' }[];
    /** The secret a regenerate replaced, kept after its grace so an old sender can be recognised. */
    previous: { value: string | null; replacedAt: number | null; expiredAt: number } | null;
    signatureHeader: string | null;
    toleranceSeconds: number | null;
  };
  /** Newest first. */
  replays: ReplayRecord[];
  limits: ReceiverLimitsForRules;
  now: number;
}

export type Rule = (ctx: RuleContext) => RuleCause[];

/** A rule that only speaks when the others found nothing of a kind (wrong_secret). */
export type FallbackRule = (ctx: RuleContext, found: readonly RuleCause[]) => RuleCause[];

export interface NamedRule {
  name: string;
  run: Rule;
}

export interface NamedFallbackRule {
  name: string;
  run: FallbackRule;
}
