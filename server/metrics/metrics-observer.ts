import type { DeliveryObserver } from '../receiver/delivery-observer.ts';
import type { MetricsService } from './metrics-service.ts';

/**
 * The receiver's hook into metrics: only refusals need counting here (stored
 * deliveries are counted from the logs). The receiver awaits this before it
 * answers 410, 429 or 413, so every answered refusal is in the journal. A body
 * over the limit is stored as a failed log and counted as a refusal too.
 */
export function metricsObserver(metrics: MetricsService): DeliveryObserver {
  return {
    rejected: (r) => metrics.countRejection(r),
    stored: (d) =>
      d.verification.reason === 'payload_too_large'
        ? metrics.countRejection({
            accountId: d.accountId,
            endpointId: d.endpointId,
            reason: 'payload_too_large',
            at: d.receivedAt,
          })
        : undefined,
  };
}
