import { route, type RouteSpec } from '../http/route.ts';
import { MetricsQuerySchema, MetricsReportSchema } from './metrics-schemas.ts';
import type { MetricsService } from './metrics-service.ts';

export function metricsRoutes(metrics: MetricsService): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/api/observability/metrics',
      summary:
        'Delivery metrics of the account over a window: totals, per endpoint, time series, failures, replays, sizes',
      tag: 'Metrics',
      acts: false,
      query: MetricsQuerySchema,
      responses: { 200: { description: 'The metrics of the window', data: MetricsReportSchema } },
      handler: async ({ account, query }) => ({ data: await metrics.report(account, query) }),
    }),
  ];
}
