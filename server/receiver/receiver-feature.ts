import type { ReceiverConfig } from '../config/config.ts';
import { trustedProxies } from '../http/client-address.ts';
import type { InstanceRegistry } from '../instances/instance-registry.ts';
import type { Clock } from '../support/clock.ts';
import type { ReportFault } from '../support/logger-faults.ts';
import { BodyBudget } from './body-budget.ts';
import type { DeliveryObserver } from './delivery-observer.ts';
import { RateLimiter, type RateLimit } from './rate-limiter.ts';
import { Receiver, receiverLimits, type ReceiverDeps } from './receiver-handler.ts';

export interface ReceiverFeatureDeps {
  endpoints: ReceiverDeps['endpoints'];
  logs: ReceiverDeps['logs'];
  clock: Clock;
  /** Fixed at start (the listener's timeouts are set when it opens). */
  config: Omit<ReceiverConfig, 'rateLimit'>;
  /** The current per-endpoint limit, read at each delivery (Settings changes it live). */
  rateLimit: () => RateLimit;
  /** The live engines on this store: each takes its share of the rate limit. */
  instances: InstanceRegistry;
  maxBodyBytes: number;
  /** Reverse proxies whose X-Forwarded-For names the sender stored as sourceIp (`trustProxy`). */
  trustProxy: readonly string[];
  /** Every other feature's observers: the receiver is built last, with the list complete. */
  observers: readonly DeliveryObserver[];
  reportFault: ReportFault;
}

/** `/webhook/:endpointId`: limits, rate limit, verification, storage, then the observers. */
export function receiverFeature(deps: ReceiverFeatureDeps) {
  const rateLimiter = new RateLimiter(deps.rateLimit, deps.clock, deps.instances);
  const service = new Receiver({
    endpoints: deps.endpoints,
    logs: deps.logs,
    clock: deps.clock,
    limits: receiverLimits({
      maxBodyBytes: deps.maxBodyBytes,
      requestTimeoutMs: deps.config.requestTimeoutMs,
      bodyIdleTimeoutMs: deps.config.bodyIdleTimeoutMs,
    }),
    rateLimiter,
    budget: new BodyBudget(deps.config.maxInFlightBodyBytes),
    onError: deps.reportFault,
    observers: [...deps.observers],
    proxies: trustedProxies(deps.trustProxy),
  });
  return {
    name: 'receiver',
    service,
    endpointDeleted: (_accountId: string, endpointId: string): void => rateLimiter.forget(endpointId),
    // Before the listeners close, so a custom answer's delay (up to 30 s) never holds them open.
    offline: (): Promise<void> => service.flushDelayedAnswers(),
  };
}
