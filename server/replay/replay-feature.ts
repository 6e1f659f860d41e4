import type { Clock } from '../support/clock.ts';
import type { IdGenerator } from '../support/ids.ts';
import type { Random } from '../support/random.ts';
import type { ForwardQueueRepository } from './forward-queue-repository.ts';
import { Forwarder, type ForwarderDeps } from './forwarder.ts';
import { replayMigrations } from './replay-migrations.ts';
import type { ReplayRepository } from './replay-repository.ts';
import { replayRoutes } from './replay-routes.ts';
import { ReplayService, type ReplayServiceDeps } from './replay-service.ts';

export interface ReplayFeatureDeps {
  /** Whichever backends the engine built (server/storage/). */
  repo: ReplayRepository;
  queue: ForwardQueueRepository;
  logs: ReplayServiceDeps['logs'];
  endpoints: ReplayServiceDeps['endpoints'];
  urls: ReplayServiceDeps['urls'];
  clock: Clock;
  random: Random;
  ids: IdGenerator;
  events: ReplayServiceDeps['events'] & ForwarderDeps['events'];
  recorded?: ReplayServiceDeps['recorded'];
  /** Retry delays and time limit of automatic forwarding. */
  forwardPolicy: ForwarderDeps['policy'];
  /** Leases on forward lanes shared with other engines on one database, and the scan for unheld work. */
  forwardLanes: Omit<ForwarderDeps['lanes'], 'owner'>;
  /** The forwarder's timers (default: the system's). */
  scheduler?: ForwarderDeps['scheduler'];
  onError: (err: unknown) => void;
}

/**
 * Replays (manual and forwarded alike, one history) and the forwarder, which
 * follows deliveries (an observer), endpoints' forwardUrl (an update hook) and
 * resumes its queue on start.
 */
export function replayFeature(deps: ReplayFeatureDeps) {
  const service = new ReplayService(deps);
  const forwarder = new Forwarder({
    ...deps,
    replays: service,
    policy: deps.forwardPolicy,
    // This engine, as the owner of the lanes it leases: random, so no two engines share one.
    lanes: { ...deps.forwardLanes, owner: deps.ids.opaque('engine') },
  });
  return {
    name: 'replay',
    migrations: replayMigrations,
    service,
    routes: replayRoutes(service, forwarder),
    observers: [forwarder],
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
    endpointUpdated: forwarder.endpointUpdated.bind(forwarder),
    start: () => forwarder.start(),
    stop: () => forwarder.stop(),
  };
}
