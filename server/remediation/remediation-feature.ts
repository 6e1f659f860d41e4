import type { Store } from '../store/store-types.ts';
import { remediationMigrations } from './remediation-migrations.ts';
import { RemediationRepository } from './remediation-repository.ts';
import { remediationRoutes } from './remediation-routes.ts';
import { RemediationService, type RemediationServiceDeps } from './remediation-service.ts';

export interface RemediationFeatureDeps extends Omit<RemediationServiceDeps, 'repo'> {
  store: Store;
}

/** Why a delivery failed and how to fix it: stored analyses, `explain`. */
export function remediationFeature(deps: RemediationFeatureDeps) {
  const service = new RemediationService({ ...deps, repo: new RemediationRepository(deps.store) });
  return {
    name: 'remediation',
    migrations: remediationMigrations,
    service,
    routes: remediationRoutes(service),
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
  };
}
