import { route, type RouteSpec } from '../http/route.ts';
import type { LogActionsService } from './log-actions-service.ts';
import { pageView, readingView, summaryView } from './log-views.ts';
import type { LogsService } from './logs-service.ts';
import {
  DeleteLogsBody,
  EndpointLogsClearedSchema,
  EndpointLogsParams,
  LogDeletedViewSchema,
  LogDetailViewSchema,
  LogIdParams,
  LogListQuery,
  LogPageSchema,
  LogsDeletedSchema,
  LogSummarySchema,
  UpdateLogBody,
  WebhookListQuery,
  WebhookPageSchema,
} from './logs-schemas.ts';

export function logsRoutes(logs: LogsService, actions: LogActionsService): RouteSpec[] {
  const tag = 'Logs';
  return [
    route({
      method: 'get',
      path: '/api/webhooks/logs',
      summary:
        'List logs, newest first (search matches body, headers and path), or oldest first after a cursor (after)',
      tag,
      acts: false,
      query: LogListQuery,
      responses: { 200: { description: 'A page of logs', data: LogPageSchema } },
      errors: {
        404: "CURSOR_NOT_FOUND: the log named by after is not stored (deleted, evicted) or not this account's",
      },
      handler: async ({ account, query }) => ({ data: pageView(await logs.list(account, query)) }),
    }),
    route({
      method: 'get',
      path: '/api/webhooks/logs/:logId',
      summary: 'Read one log with its headers and body, what the sender was answered, and whether it can be explained',
      tag,
      acts: false,
      params: LogIdParams,
      responses: { 200: { description: 'The full capture', data: LogDetailViewSchema } },
      handler: async ({ account, params }) => ({ data: readingView(await logs.read(account, params.logId)) }),
    }),
    route({
      method: 'patch',
      path: '/api/webhooks/logs/:logId',
      summary: 'Pin or unpin a log (a pinned log is never evicted by retention)',
      tag,
      params: LogIdParams,
      body: UpdateLogBody,
      responses: { 200: { description: 'The log as the list shows it', data: LogSummarySchema } },
      handler: async ({ account, params, body }) => ({
        data: summaryView(await actions.setPinned(account, params.logId, body.pinned)),
      }),
    }),
    route({
      method: 'delete',
      path: '/api/webhooks/logs/:logId',
      summary: 'Delete a log with its share link, analysis, replay history and queued forward',
      tag,
      params: LogIdParams,
      responses: { 200: { description: 'Deleted', data: LogDeletedViewSchema } },
      handler: async ({ account, params }) => ({ data: await actions.delete(account, params.logId) }),
    }),
    route({
      method: 'post',
      path: '/api/webhooks/logs/delete',
      summary: "Delete many logs by id (at most 1000); ids that name none of the account's logs are listed as notFound",
      tag,
      body: DeleteLogsBody,
      responses: { 200: { description: 'What was deleted and what was not found', data: LogsDeletedSchema } },
      handler: async ({ account, body }) => ({ data: await actions.deleteMany(account, body.ids) }),
    }),
    route({
      method: 'delete',
      path: '/api/endpoints/:endpointId/logs',
      summary: "Clear an endpoint's logs: delete all but the pinned ones (the endpoint stays)",
      tag,
      params: EndpointLogsParams,
      responses: { 200: { description: 'How many logs were deleted', data: EndpointLogsClearedSchema } },
      handler: async ({ account, params }) => ({ data: await actions.clearEndpoint(account, params.endpointId) }),
    }),
    route({
      method: 'get',
      path: '/api/webhooks',
      summary: 'List received webhooks (the alternative shape: webhooks, total, hasMore)',
      tag,
      acts: false,
      query: WebhookListQuery,
      responses: { 200: { description: 'A page of webhooks', data: WebhookPageSchema } },
      handler: async ({ account, query }) => {
        const page = await logs.list(account, query);
        return { data: { webhooks: page.logs.map(summaryView), total: page.total, hasMore: page.hasMore } };
      },
    }),
  ];
}
