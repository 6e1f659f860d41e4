import { diagnoseRoutes } from './diagnose-routes.ts';
import { DiagnoseService, type DiagnoseServiceDeps } from './diagnose-service.ts';

/** The CLI's "why did this delivery not reach my handler": reconstruction, destination checks, history. */
export function diagnoseFeature(deps: DiagnoseServiceDeps) {
  const service = new DiagnoseService(deps);
  return { name: 'diagnose', service, routes: diagnoseRoutes(service) };
}
