import { compareRoutes } from './compare-routes.ts';
import { CompareService, type CompareServiceDeps } from './compare-service.ts';

/** Two stored deliveries side by side: request line, header and body differences. */
export function compareFeature(deps: CompareServiceDeps) {
  const service = new CompareService(deps);
  return { name: 'compare', service, routes: compareRoutes(service) };
}
