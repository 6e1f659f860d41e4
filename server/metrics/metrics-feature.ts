import { systemScheduler, type Scheduler } from '../support/scheduler.ts';
import { metricsMigrations } from './metrics-migrations.ts';
import { metricsObserver } from './metrics-observer.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { MetricsService, type MetricsServiceDeps } from './metrics-service.ts';
import { RefusalsNotifier, type RefusalsNotifierDeps } from './refusals-notifier.ts';
import { RefusalsService, type RefusalsServiceDeps } from './refusals-service.ts';

export interface MetricsFeatureDeps extends Omit<MetricsServiceDeps, 'refusalsCounted'> {
  endpoints: MetricsServiceDeps['endpoints'] & RefusalsServiceDeps['endpoints'];
  /** `refusals.counted`, throttled per account. */
  events: RefusalsNotifierDeps['events'];
  /** Timers of the throttle (the system's unless a test drives them). */
  scheduler?: Scheduler;
  onError: (err: unknown) => void;
}

/**
 * Delivery counts and rates per window; refusals are counted here (most leave
 * no log), read back by `GET /api/observability/refusals` and told live.
 */
export function metricsFeature(deps: MetricsFeatureDeps) {
  const refusals = new RefusalsService({ repo: deps.repo, endpoints: deps.endpoints, clock: deps.clock });
  const notifier = new RefusalsNotifier({
    refusals,
    events: deps.events,
    clock: deps.clock,
    scheduler: deps.scheduler ?? systemScheduler,
    onError: deps.onError,
  });
  const service = new MetricsService({
    ...deps,
    refusalsCounted: (accountIds) => notifier.counted(accountIds),
  });
  return {
    name: 'metrics',
    migrations: metricsMigrations,
    service,
    routes: metricsRoutes(service, refusals),
    observers: [metricsObserver(service)],
    // The listeners are closed, the store still open: no booked event may read it once it closes.
    stop: async (): Promise<void> => notifier.stop(),
  };
}
