import { route, type RouteSpec } from '../http/route.ts';
import { LogIdParams } from '../logs/logs-schemas.ts';
import { ExportQuery, ExportSchema } from './export-schemas.ts';
import type { ExportService } from './export-service.ts';

export function exportRoutes(exporter: ExportService): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/api/webhooks/logs/:logId/export',
      summary:
        'Export a log as a cURL command, raw HTTP/1.1, JSON or HAR 1.2 (redact=true hides credentials and signatures)',
      tag: 'Export',
      acts: false,
      params: LogIdParams,
      query: ExportQuery,
      responses: { 200: { description: 'The file: name, content type and content', data: ExportSchema } },
      handler: async ({ account, params, query }) => ({ data: await exporter.export(account, params.logId, query) }),
    }),
  ];
}
