import type { NewLog } from '../logs/log-types.ts';

/** A delivery the receiver stored, as features that react to deliveries see it. */
export interface StoredDelivery extends NewLog {
  id: string;
}

/** Why a delivery was refused without storing anything. */
export const REJECTION_REASONS = ['endpoint_inactive', 'rate_limited'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** A delivery refused without storing anything (an inactive endpoint, a sender over the rate limit). */
export interface RejectedDelivery {
  accountId: string;
  endpointId: string;
  reason: RejectionReason;
  at: number;
}

/**
 * How other features learn about deliveries without the receiver knowing them
 * (forwarding, metrics, live events). The receiver awaits every observer before
 * it answers the sender, so an observer that writes with a durable ack (the
 * forward queue) is as crash-safe as the log itself. An observer that fails is
 * reported to the engine's error sink and never fails the delivery.
 */
export interface DeliveryObserver {
  stored?(delivery: StoredDelivery): Promise<void> | void;
  rejected?(rejection: RejectedDelivery): Promise<void> | void;
}

/**
 * Runs every observer; one that fails (throws or rejects) is reported and never
 * fails the delivery nor stops the others. Most answer at once (live events,
 * metrics): only the promises some return are awaited, so a delivery pays for no
 * promise per observer (measured with four observers: 7% of the receiver thread
 * at full ingest went to the promise per observer and a copy of the log for each).
 */
export async function notifyObservers(
  observers: readonly DeliveryObserver[],
  call: (o: DeliveryObserver) => Promise<void> | void | undefined,
  onError: (err: unknown) => void,
): Promise<void> {
  let pending: Promise<void>[] | null = null;
  for (const o of observers) {
    try {
      const done = call(o);
      if (done) (pending ??= []).push(done.catch((e: unknown) => onError(e)));
    } catch (e) {
      onError(e);
    }
  }
  if (pending) await Promise.all(pending);
}
