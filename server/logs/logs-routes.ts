import { route, type RouteSpec } from '../http/route.ts';
import type { LogsService } from './logs-service.ts';
import {
  LogDetailSchema,
  LogIdParams,
  LogListQuery,
  LogPageSchema,
  WebhookListQuery,
  WebhookPageSchema,
} from './logs-schemas.ts';

export function logsRoutes(logs: LogsService): RouteSpec[] {
  const tag = 'Logs';
  return [
    route({
      method: 'get',
      path: '/api/webhooks/logs',
      summary: 'List logs, newest first (search matches body, headers and path)',
      tag,
      query: LogListQuery,
      responses: { 200: { description: 'A page of logs', data: LogPageSchema } },
      handler: async ({ account, query }) => ({ data: await logs.list(account, query) }),
    }),
    route({
      method: 'get',
      path: '/api/webhooks/logs/:logId',
      summary: 'Read one log with its headers and body',
      tag,
      params: LogIdParams,
      responses: { 200: { description: 'The full capture', data: LogDetailSchema } },
      handler: async ({ account, params }) => ({ data: await logs.get(account, params.logId) }),
    }),
    route({
      method: 'get',
      path: '/api/webhooks',
      summary: 'List received webhooks (the alternative shape: webhooks, total, hasMore)',
      tag,
      query: WebhookListQuery,
      responses: { 200: { description: 'A page of webhooks', data: WebhookPageSchema } },
      handler: async ({ account, query }) => {
        const page = await logs.list(account, query);
        return { data: { webhooks: page.logs, total: page.total, hasMore: page.hasMore } };
      },
    }),
  ];
}
