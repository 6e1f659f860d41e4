import { route, type RouteSpec } from '../http/route.ts';
import { MetricsQuerySchema, MetricsReportSchema } from './metrics-schemas.ts';
import type { MetricsService } from './metrics-service.ts';
import { RefusalsQuerySchema, RefusalsSchema } from './refusals-schemas.ts';
import type { RefusalsService } from './refusals-service.ts';

export function metricsRoutes(metrics: MetricsService, refusals: RefusalsService): RouteSpec[] {
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
    route({
      method: 'get',
      path: '/api/observability/refusals',
      summary:
        'Deliveries the receiver refused recently (rate limit, inactive endpoint, too large), by reason and endpoint',
      tag: 'Metrics',
      acts: false,
      query: RefusalsQuerySchema,
      responses: { 200: { description: 'The refusals of the window', data: RefusalsSchema } },
      handler: async ({ account, query }) => ({
        data: await refusals.read(account.id, query.window, query.endpointId),
      }),
    }),
  ];
}
