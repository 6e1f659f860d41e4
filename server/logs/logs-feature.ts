import type { Store } from '../store/store-types.ts';
import type { IdGenerator } from '../support/ids.ts';
import { LogActionsService, type LogActionsDeps } from './log-actions-service.ts';
import { logsMigrations } from './logs-migrations.ts';
import { LogsRepository, type RetentionPolicy } from './logs-repository.ts';
import { logsRoutes } from './logs-routes.ts';
import { LogsService } from './logs-service.ts';

export interface LogsFeatureDeps {
  store: Store;
  ids: IdGenerator;
  /** The current budgets, read at each insert (Settings changes them live). */
  retention: () => RetentionPolicy;
  /** The endpoints service: clearing an endpoint's logs checks the endpoint through it. */
  endpoints: LogActionsDeps['endpoints'];
  events: LogActionsDeps['events'];
}

/**
 * Stored deliveries: the receiver records them, every other feature reads them
 * through this service; the user deletes and pins them through `LogActionsService`.
 */
export function logsFeature(deps: LogsFeatureDeps) {
  const repo = new LogsRepository(deps.store, deps.retention);
  const service = new LogsService(repo, deps.ids);
  const actions = new LogActionsService({ repo, endpoints: deps.endpoints, events: deps.events });
  return {
    name: 'logs',
    migrations: logsMigrations,
    service,
    routes: logsRoutes(service, actions),
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
  };
}
