import type { DeliveryObserver } from '../receiver/delivery-observer.ts';
import type { MetricsService } from './metrics-service.ts';

/**
 * The receiver's hook into metrics: only refusals need counting here (stored
 * deliveries are counted from the logs), and the receiver awaits this before it
 * answers 410, so every answered rejection is in the journal.
 */
export function metricsObserver(metrics: MetricsService): DeliveryObserver {
  return { rejected: (r) => metrics.countRejection(r) };
}
