import { parseStripeHeader } from '../../receiver/verifiers/stripe-verifier.ts';
import { headerText } from './probe.ts';

/**
 * Where each timestamped scheme puts the time it signed (unix seconds). Data,
 * like provider-headers.ts: schemes listed here may be newer than the verifiers.
 */
const TIMESTAMP_READERS: Record<string, (h: Record<string, string | string[]>) => number | null> = {
  stripe: (h) => {
    const v = headerText(h['stripe-signature']);
    return v ? (parseStripeHeader(v)?.timestamp ?? null) : null;
  },
  slack: (h) => unixSeconds(headerText(h['x-slack-request-timestamp'])),
  standard_webhooks: (h) => unixSeconds(headerText(h['webhook-timestamp'] ?? h['svix-timestamp'])),
};

const unixSeconds = (v: string | undefined): number | null =>
  v && /^\d{1,12}$/.test(v.trim()) ? Number(v.trim()) : null;

/** The signed timestamp of a delivery, or null when the scheme has none (or it is unreadable). */
export function signedTimestamp(scheme: string, headers: Record<string, string | string[]>): number | null {
  return TIMESTAMP_READERS[scheme]?.(headers) ?? null;
}
