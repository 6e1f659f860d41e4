import type { Store } from '../store/store-types.ts';
import { metricsMigrations } from './metrics-migrations.ts';
import { metricsObserver } from './metrics-observer.ts';
import { MetricsRepository } from './metrics-repository.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { MetricsService, type MetricsServiceDeps } from './metrics-service.ts';

export interface MetricsFeatureDeps extends Omit<MetricsServiceDeps, 'repo'> {
  store: Store;
}

/** Delivery counts and rates per window; refusals are counted here, as they leave no log. */
export function metricsFeature(deps: MetricsFeatureDeps) {
  const service = new MetricsService({ ...deps, repo: new MetricsRepository(deps.store) });
  return {
    name: 'metrics',
    migrations: metricsMigrations,
    service,
    routes: metricsRoutes(service),
    observers: [metricsObserver(service)],
  };
}
