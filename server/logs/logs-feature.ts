import type { Store } from '../store/store-types.ts';
import type { IdGenerator } from '../support/ids.ts';
import { logsMigrations } from './logs-migrations.ts';
import { LogsRepository, type RetentionPolicy } from './logs-repository.ts';
import { logsRoutes } from './logs-routes.ts';
import { LogsService } from './logs-service.ts';

export interface LogsFeatureDeps {
  store: Store;
  ids: IdGenerator;
  retention: RetentionPolicy;
}

/** Stored deliveries: the receiver records them, every other feature reads them through this service. */
export function logsFeature(deps: LogsFeatureDeps) {
  const service = new LogsService(new LogsRepository(deps.store, deps.retention), deps.ids);
  return {
    name: 'logs',
    migrations: logsMigrations,
    service,
    routes: logsRoutes(service),
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
  };
}
