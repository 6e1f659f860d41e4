import { route, type RouteSpec } from '../http/route.ts';
import type { Forwarder } from './forwarder.ts';
import {
  AliasParams,
  DiffQuery,
  DiffSchema,
  EndpointParams,
  ForwardStatusSchema,
  HistoryQuery,
  HistorySchema,
  LogIdParams,
  OutgoingBody,
  OutgoingRequestSchema,
  ReplayBody,
  ReplayDetailSchema,
  ReplayExchangeSchema,
  ReplayParams,
  SentBody,
} from './replay-schemas.ts';
import type { ReplayService } from './replay-service.ts';
import { historyEntry } from './replay-types.ts';
import { outgoingRequestView, replayDetailView, replayDiffView, replayExchangeView } from './replay-views.ts';

const REPLAY_RESPONSES = {
  200: {
    description: 'The target answered (any status, 4xx/5xx included); the attempt is in history',
    data: ReplayDetailSchema,
  },
};

const REPLAY_ERRORS = {
  409: 'The log body was truncated (pass a body), or the endpoint has no secret to re-sign with',
  502: 'TARGET_UNREACHABLE: DNS failure, connection refused or reset; recorded, details.replayId',
  504: 'TARGET_TIMEOUT: no complete answer within timeoutMs; recorded, details.replayId',
};

export function replayRoutes(replays: ReplayService, forwarder: Forwarder): RouteSpec[] {
  const tag = 'Replay';
  return [
    route({
      method: 'post',
      path: '/api/replay/:webhookLogId',
      summary: 'Send a stored delivery to a target URL (original method, headers and bytes unless overridden)',
      tag,
      params: LogIdParams,
      body: ReplayBody,
      responses: REPLAY_RESPONSES,
      errors: REPLAY_ERRORS,
      handler: async ({ account, params, body }) => ({
        data: replayDetailView(await replays.replay(account, params.webhookLogId, body)),
      }),
    }),
    route({
      method: 'post',
      path: '/api/webhooks/:id/replay',
      summary: 'Replay a stored delivery (alias of POST /api/replay/{webhookLogId})',
      tag,
      params: AliasParams,
      body: ReplayBody,
      responses: REPLAY_RESPONSES,
      errors: REPLAY_ERRORS,
      handler: async ({ account, params, body }) => ({
        data: replayDetailView(await replays.replay(account, params.id, body)),
      }),
    }),
    route({
      method: 'post',
      path: '/api/replay/:webhookLogId/outgoing',
      summary:
        'The request a replay to targetUrl would send (sub-path and query joined, headers, re-signed when asked, exact body), built and not sent',
      tag,
      // Builds a request and changes nothing (no history entry).
      acts: false,
      params: LogIdParams,
      body: OutgoingBody,
      responses: { 200: { description: 'The request to send', data: OutgoingRequestSchema } },
      errors: {
        400: 'A field is invalid (as for a replay), or the sub-path cannot be joined below targetUrl (UNSAFE_SUB_PATH)',
        409: 'The log body was truncated (pass a body), or the endpoint has no secret to re-sign with',
      },
      handler: async ({ account, params, body }) => ({
        data: outgoingRequestView(await replays.outgoing(account, params.webhookLogId, body)),
      }),
    }),
    route({
      method: 'post',
      path: '/api/replay/:webhookLogId/sent',
      summary:
        "Record a replay the client sent itself (the desktop app on a team server sends to the laptop's localhost)",
      tag,
      params: LogIdParams,
      body: SentBody,
      responses: {
        200: {
          description:
            "Recorded (trigger client) like the engine's own replays, a target failure included (in `error`)",
          data: ReplayDetailSchema,
        },
      },
      errors: {
        400: "A field is invalid, or edited is false while the body differs from the log's bytes",
        409: 'The log body was truncated (over the body limit) and no body was given',
      },
      handler: async ({ account, params, body }) => ({
        data: replayDetailView(await replays.recordSent(account, params.webhookLogId, body)),
      }),
    }),
    route({
      method: 'get',
      path: '/api/replay/:webhookLogId/history',
      summary: "A log's replays and forwards, newest first",
      tag,
      acts: false,
      params: LogIdParams,
      query: HistoryQuery,
      responses: { 200: { description: 'History page', data: HistorySchema } },
      handler: async ({ account, params, query }) => {
        const page = await replays.historyPage(account, params.webhookLogId, query.limit, query.offset);
        return { data: { history: page.history.map(historyEntry), total: page.total } };
      },
    }),
    route({
      method: 'get',
      path: '/api/replay/:webhookLogId/replays/:replayId',
      summary:
        'One replay with the request as sent (method, headers in order, body) and the response received (body capped at 64 KiB)',
      tag,
      acts: false,
      params: ReplayParams,
      responses: { 200: { description: 'The replay', data: ReplayExchangeSchema } },
      handler: async ({ account, params }) => ({
        data: replayExchangeView(await replays.get(account, params.webhookLogId, params.replayId)),
      }),
    }),
    route({
      method: 'get',
      path: '/api/replay/:webhookLogId/diff',
      summary: 'Status, header and body differences between two replays of the same log (b compared with a)',
      tag,
      acts: false,
      params: LogIdParams,
      query: DiffQuery,
      responses: { 200: { description: 'The differences', data: DiffSchema } },
      handler: async ({ account, params, query }) => ({
        data: replayDiffView(await replays.diff(account, params.webhookLogId, query.a, query.b)),
      }),
    }),
    route({
      method: 'get',
      path: '/api/endpoints/:endpointId/forward',
      summary: "The endpoint's forward queue: state, pending deliveries, next attempt, last error",
      tag,
      acts: false,
      params: EndpointParams,
      responses: { 200: { description: 'Forward queue status', data: ForwardStatusSchema } },
      handler: async ({ account, params }) => ({ data: await forwarder.status(account.id, params.endpointId) }),
    }),
  ];
}
