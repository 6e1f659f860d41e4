import type { BaseUrls } from '../support/base-urls.ts';
import type { Clock } from '../support/clock.ts';
import type { IdGenerator } from '../support/ids.ts';
import type { Random } from '../support/random.ts';
import { EndpointDependents } from './endpoint-dependents.ts';
import type { EndpointChanged } from './endpoint-events.ts';
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
  /**
   * The engine's bus: the service publishes on it and, when `shared` (several instances on one
   * database), refreshes its table from what it observes. Typed here by what is used, so
   * endpoints do not import the events feature, which imports theirs.
   */
  events: EndpointsServiceDeps['events'] & {
    readonly shared: boolean;
    observe(listener: (event: { type: string; data: object }) => void): () => void;
  };
  onError: (err: unknown) => void;
}

/**
 * Endpoints: their routes, the in-memory table the receiver reads, and the
 * deletion cascade. `dependents` is given the engine's feature list once it is
 * complete (see EndpointDependents).
 */
export function endpointsFeature(deps: EndpointsFeatureDeps) {
  const dependents = new EndpointDependents();
  let stopObserving = (): void => {};
  const service = new EndpointsService({ ...deps, dependents, shared: deps.events.shared });
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
      // Before the table is loaded: a change made meanwhile is then read again rather than missed.
      if (deps.events.shared) {
        stopObserving = deps.events.observe((e) => {
          if (e.type === 'endpoint.changed') {
            service.refresh((e.data as EndpointChanged).endpointId).catch(deps.onError);
          }
        });
      }
      await service.init();
      // A rotated-out secret past its grace period is erased at start and at every housekeeping round
      // (with the embedded store: before every snapshot, so no snapshot keeps one).
      await service.eraseExpiredSecrets();
      deps.housekeeping(() => service.eraseExpiredSecrets());
    },
    stop: async (): Promise<void> => stopObserving(),
  };
}
