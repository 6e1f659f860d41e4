import { exportRoutes } from './export-routes.ts';
import { ExportService, type ExportServiceDeps } from './export-service.ts';

/** One stored delivery as a cURL command, raw HTTP, JSON or HAR. */
export function exportFeature(deps: ExportServiceDeps) {
  const service = new ExportService(deps);
  return { name: 'export', service, routes: exportRoutes(service) };
}
