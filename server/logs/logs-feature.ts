import type { IdGenerator } from '../support/ids.ts';
import { LogActionsService, type LogActionsDeps } from './log-actions-service.ts';
import { logsMigrations } from './logs-migrations.ts';
import type { LogsRepository } from './logs-repository.ts';
import { logsRoutes } from './logs-routes.ts';
import { LogsService, type Explainable } from './logs-service.ts';

/** Work a backend runs beside its repository while the engine runs (sql.js: the search index backfill). */
export interface BackgroundWork {
  start(): void;
  /** Stops after the step in hand; resolves once it is written. */
  stop(): Promise<void>;
}

export interface LogsFeatureDeps {
  /** Whichever backend the engine built (server/storage/), with the retention budgets it reads at each insert. */
  repo: LogsRepository;
  /** The backend's background work, started once the store is loaded and stopped with the engine. */
  background?: BackgroundWork;
  ids: IdGenerator;
  /** The endpoints service: clearing an endpoint's logs checks the endpoint through it. */
  endpoints: LogActionsDeps['endpoints'];
  events: LogActionsDeps['events'];
  /** Remediation's rule for the detail's `explainable`; called only once requests come (see Explainable). */
  explainable: Explainable;
}

/**
 * Stored deliveries: the receiver records them, every other feature reads them
 * through this service; the user deletes and pins them through `LogActionsService`.
 */
export function logsFeature(deps: LogsFeatureDeps) {
  const { repo, background } = deps;
  const service = new LogsService(repo, deps.ids, deps.explainable);
  const actions = new LogActionsService({ repo, endpoints: deps.endpoints, events: deps.events });
  return {
    name: 'logs',
    migrations: logsMigrations,
    service,
    routes: logsRoutes(service, actions),
    start: async () => background?.start(),
    stop: async () => background?.stop(),
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
  };
}
