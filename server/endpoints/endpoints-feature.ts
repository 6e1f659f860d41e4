import type { BaseUrls } from '../support/base-urls.ts';
import type { Clock } from '../support/clock.ts';
import type { IdGenerator } from '../support/ids.ts';
import type { Random } from '../support/random.ts';
import { EndpointDependents } from './endpoint-dependents.ts';
import { endpointsMigrations } from './endpoints-migrations.ts';
import type { EndpointsRepository } from './endpoints-repository.ts';
import { endpointsRoutes } from './endpoints-routes.ts';
import { EndpointsService, type EndpointsServiceDeps } from './endpoints-service.ts';
import { TestDeliveryService } from './test-delivery-service.ts';

export interface EndpointsFeatureDeps {
  /** Whichever backend the engine built (server/storage/). */
  repo: EndpointsRepository;
  /**
   * Runs a task now and then, for as long as the engine runs (the storage
   * backend's housekeeping: before every snapshot of the embedded store, on a
   * timer with PostgreSQL). Previous secrets past their grace are erased there.
   */
  housekeeping: (task: () => Promise<unknown>) => void;
  clock: Clock;
  random: Random;
  ids: IdGenerator;
  urls: BaseUrls;
  secretGraceMs: number;
  events: EndpointsServiceDeps['events'];
}

/**
 * Endpoints: their routes, the in-memory table the receiver reads, and the
 * deletion cascade. `dependents` is given the engine's feature list once it is
 * complete (see EndpointDependents).
 */
export function endpointsFeature(deps: EndpointsFeatureDeps) {
  const dependents = new EndpointDependents();
  const service = new EndpointsService({ ...deps, dependents });
  const testDelivery = new TestDeliveryService({
    endpoints: service,
    urls: deps.urls,
    clock: deps.clock,
    random: deps.random,
  });
  return {
    name: 'endpoints',
    migrations: endpointsMigrations,
    service,
    dependents,
    routes: endpointsRoutes(service, testDelivery),
    start: async (): Promise<void> => {
      await service.init();
      // A rotated-out secret past its grace period is erased at start and at every housekeeping round
      // (with the embedded store: before every snapshot, so no snapshot keeps one).
      await service.eraseExpiredSecrets();
      deps.housekeeping(() => service.eraseExpiredSecrets());
    },
  };
}
