import { remediationMigrations } from './remediation-migrations.ts';
import { remediationRoutes } from './remediation-routes.ts';
import { RemediationService, type RemediationServiceDeps } from './remediation-service.ts';

/** `repo` is whichever backend the engine built (server/storage/). */
export type RemediationFeatureDeps = RemediationServiceDeps;

/** Why a delivery failed and how to fix it: stored analyses, `explain`. */
export function remediationFeature(deps: RemediationFeatureDeps) {
  const service = new RemediationService(deps);
  return {
    name: 'remediation',
    migrations: remediationMigrations,
    service,
    routes: remediationRoutes(service),
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
  };
}
