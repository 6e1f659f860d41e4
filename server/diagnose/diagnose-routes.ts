import { route, type RouteSpec } from '../http/route.ts';
import { LogIdParams } from '../logs/logs-schemas.ts';
import { DiagnoseQuery, DiagnosisSchema } from './diagnose-schemas.ts';
import type { DiagnoseService } from './diagnose-service.ts';
import { diagnosisView } from './diagnose-views.ts';

export function diagnoseRoutes(diagnose: DiagnoseService): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/api/cli/diagnose/:logId',
      summary:
        'Diagnose a delivery: cURL and raw HTTP reconstruction, verification recomputed now, DNS/connect/HTTP checks of the target (or forward URL, or last replay target), recent replays',
      tag: 'CLI',
      params: LogIdParams,
      query: DiagnoseQuery,
      responses: { 200: { description: 'The diagnosis', data: DiagnosisSchema } },
      handler: async ({ account, params, query }) => ({
        data: diagnosisView(await diagnose.diagnose(account, params.logId, query.target)),
      }),
    }),
  ];
}
