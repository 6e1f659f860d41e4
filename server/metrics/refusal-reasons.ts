import { REJECTION_REASONS, type RejectionReason } from '../receiver/delivery-observer.ts';

/**
 * The refusals metrics counts, per account, endpoint, minute and reason: the two
 * the receiver answers without storing anything (an inactive endpoint's 410, the
 * rate limit's 429), and a body over the size limit (413), which is also stored
 * as a failed log. All three are counted here, at the moment of the answer, so
 * the refusals read and its live event count them the same way whatever later
 * happens to the stored log (deleted, evicted).
 */
export const REFUSAL_REASONS = [...REJECTION_REASONS, 'payload_too_large'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** One refused delivery, as metrics counts it. */
export interface CountedRefusal {
  accountId: string;
  endpointId: string;
  reason: RefusalReason;
  at: number;
}

const NOT_STORED: ReadonlySet<string> = new Set<RejectionReason>(REJECTION_REASONS);

/**
 * Whether a counted reason left no log. The metrics report counts only these as
 * `rejected`: a delivery refused as too large is a stored `failed` log there, and
 * must not count twice.
 */
export const leftNoLog = (reason: string): boolean => NOT_STORED.has(reason);

export const isRefusalReason = (reason: string): reason is RefusalReason =>
  (REFUSAL_REASONS as readonly string[]).includes(reason);
