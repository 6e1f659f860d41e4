import { route, type RouteSpec } from '../http/route.ts';
import { CompareQuery, ComparisonSchema } from './compare-schemas.ts';
import type { CompareService } from './compare-service.ts';
import { comparisonView } from './compare-views.ts';

export function compareRoutes(comparer: CompareService): RouteSpec[] {
  return [
    route({
      // Not under /api/webhooks/logs/: the logs feature's :logId route is mounted first and would take "compare".
      method: 'get',
      path: '/api/webhooks/compare',
      summary:
        'Compare two deliveries, b with a: method, path, query, headers (added, removed, changed) and body (JSON-aware when both parse)',
      tag: 'Logs',
      acts: false,
      query: CompareQuery,
      responses: { 200: { description: 'The differences', data: ComparisonSchema } },
      errors: { 404: "Either log is unknown or another account's" },
      handler: async ({ account, query }) => ({
        data: comparisonView(await comparer.compare(account, query.a, query.b)),
      }),
    }),
  ];
}
