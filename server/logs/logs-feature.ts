import type { Store } from '../store/store-types.ts';
import type { IdGenerator } from '../support/ids.ts';
import { LogActionsService, type LogActionsDeps } from './log-actions-service.ts';
import { storedBodies } from './log-search.ts';
import { logsMigrations } from './logs-migrations.ts';
import { LogsRepository, type RetentionPolicy } from './logs-repository.ts';
import { logsRoutes } from './logs-routes.ts';
import { LogsService, type Explainable } from './logs-service.ts';
import { SearchBackfill } from './search-backfill.ts';

export interface LogsFeatureDeps {
  store: Store;
  ids: IdGenerator;
  /** The current budgets, read at each insert (Settings changes them live). */
  retention: () => RetentionPolicy;
  /** The endpoints service: clearing an endpoint's logs checks the endpoint through it. */
  endpoints: LogActionsDeps['endpoints'];
  events: LogActionsDeps['events'];
  /** Where the search index's background backfill reports a fault. */
  onError: (err: unknown) => void;
  /** Remediation's rule for the detail's `explainable`; called only once requests come (see Explainable). */
  explainable: Explainable;
}

/**
 * Stored deliveries: the receiver records them, every other feature reads them
 * through this service; the user deletes and pins them through `LogActionsService`.
 */
export function logsFeature(deps: LogsFeatureDeps) {
  const repo = new LogsRepository(deps.store, deps.retention);
  const service = new LogsService(repo, deps.ids, deps.explainable);
  const actions = new LogActionsService({ repo, endpoints: deps.endpoints, events: deps.events });
  const backfill = new SearchBackfill(deps.store, storedBodies(deps.store), deps.onError);
  return {
    name: 'logs',
    migrations: logsMigrations,
    service,
    routes: logsRoutes(service, actions),
    start: async () => backfill.start(),
    stop: () => backfill.stop(),
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
  };
}
