import type { z } from 'zod';
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
  ReplayBody,
  ReplayDetailSchema,
  ReplayParams,
} from './replay-schemas.ts';
import type { ReplayService } from './replay-service.ts';

type Body = z.output<typeof ReplayBody>;

const REPLAY_RESPONSES = [
  {
    status: 200,
    description: 'The target answered (any status, 4xx/5xx included); the attempt is in history',
    data: ReplayDetailSchema,
  },
  {
    status: 409,
    description: 'The log body was truncated (pass a body), or the endpoint has no secret to re-sign with',
  },
  {
    status: 502,
    description: 'TARGET_UNREACHABLE: DNS failure, connection refused or reset; recorded, details.replayId',
  },
  { status: 504, description: 'TARGET_TIMEOUT: no complete answer within timeoutMs; recorded, details.replayId' },
];

export function replayRoutes(replays: ReplayService, forwarder: Forwarder): RouteSpec[] {
  const tag = 'Replay';
  return [
    route<z.output<typeof LogIdParams>, Record<string, never>, Body>({
      method: 'post',
      path: '/api/replay/:webhookLogId',
      summary: 'Send a stored delivery to a target URL (original method, headers and bytes unless overridden)',
      tag,
      params: LogIdParams,
      body: ReplayBody,
      responses: REPLAY_RESPONSES,
      handler: async ({ account, params, body }) => ({
        data: await replays.replay(account, params.webhookLogId, body),
      }),
    }),
    route<z.output<typeof AliasParams>, Record<string, never>, Body>({
      method: 'post',
      path: '/api/webhooks/:id/replay',
      summary: 'Replay a stored delivery (alias of POST /api/replay/{webhookLogId})',
      tag,
      params: AliasParams,
      body: ReplayBody,
      responses: REPLAY_RESPONSES,
      handler: async ({ account, params, body }) => ({ data: await replays.replay(account, params.id, body) }),
    }),
    route<z.output<typeof LogIdParams>, z.output<typeof HistoryQuery>>({
      method: 'get',
      path: '/api/replay/:webhookLogId/history',
      summary: "A log's replays and forwards, newest first",
      tag,
      params: LogIdParams,
      query: HistoryQuery,
      responses: [{ status: 200, description: 'History page', data: HistorySchema }],
      handler: async ({ account, params, query }) => ({
        data: await replays.historyPage(account, params.webhookLogId, query.limit, query.offset),
      }),
    }),
    route<z.output<typeof ReplayParams>>({
      method: 'get',
      path: '/api/replay/:webhookLogId/replays/:replayId',
      summary: 'One replay with the headers sent and the response received (body capped at 64 KiB)',
      tag,
      params: ReplayParams,
      responses: [{ status: 200, description: 'The replay', data: ReplayDetailSchema }],
      handler: async ({ account, params }) => ({
        data: await replays.get(account, params.webhookLogId, params.replayId),
      }),
    }),
    route<z.output<typeof LogIdParams>, z.output<typeof DiffQuery>>({
      method: 'get',
      path: '/api/replay/:webhookLogId/diff',
      summary: 'Status, header and body differences between two replays of the same log (b compared with a)',
      tag,
      params: LogIdParams,
      query: DiffQuery,
      responses: [{ status: 200, description: 'The differences', data: DiffSchema }],
      handler: async ({ account, params, query }) => ({
        data: await replays.diff(account, params.webhookLogId, query.a, query.b),
      }),
    }),
    route<z.output<typeof EndpointParams>>({
      method: 'get',
      path: '/api/endpoints/:endpointId/forward',
      summary: "The endpoint's forward queue: state, pending deliveries, next attempt, last error",
      tag,
      params: EndpointParams,
      responses: [{ status: 200, description: 'Forward queue status', data: ForwardStatusSchema }],
      handler: async ({ account, params }) => ({ data: await forwarder.status(account.id, params.endpointId) }),
    }),
  ];
}
