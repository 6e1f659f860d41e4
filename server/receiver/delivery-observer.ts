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
