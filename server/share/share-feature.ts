import type { ReportFault } from '../support/logger-faults.ts';
import { shareMigrations } from './share-migrations.ts';
import { sharePageHandler } from './share-page.ts';
import type { ShareRepository } from './share-repository.ts';
import { shareRoutes } from './share-routes.ts';
import { ShareService, type ShareServiceDeps } from './share-service.ts';

export interface ShareFeatureDeps extends ShareServiceDeps {
  /** Whichever backend the engine built (server/storage/). */
  repo: ShareRepository;
  reportFault: ReportFault;
}

/** Share links: the API to create and revoke them, and the page both listeners serve at `/share/:token`. */
export function shareFeature(deps: ShareFeatureDeps) {
  const service = new ShareService(deps);
  return {
    name: 'share',
    migrations: shareMigrations,
    service,
    routes: shareRoutes(service),
    page: sharePageHandler(service, deps.reportFault),
    endpointDeleted: (accountId: string, endpointId: string) => service.deleteForEndpoint(accountId, endpointId),
  };
}
