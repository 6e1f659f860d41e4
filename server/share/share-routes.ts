import { route, type RouteSpec } from '../http/route.ts';
import { LogIdParams } from '../logs/logs-schemas.ts';
import { CreateShareBody, RevokedShareSchema, ShareSchema } from './share-schemas.ts';
import type { ShareService } from './share-service.ts';
import { shareView } from './share-views.ts';

export function shareRoutes(shares: ShareService): RouteSpec[] {
  const tag = 'Sharing';
  return [
    route({
      method: 'post',
      path: '/api/webhooks/:logId/share',
      summary: "Create the log's share link (replaces the previous one, which then answers 404)",
      tag,
      params: LogIdParams,
      body: CreateShareBody,
      bodyOptional: true,
      responses: { 201: { description: 'The link; the only time its token is shown', data: ShareSchema } },
      handler: async ({ account, params, body }) => ({
        status: 201,
        data: shareView(await shares.create(account, params.logId, body)),
      }),
    }),
    route({
      method: 'delete',
      path: '/api/webhooks/:logId/share',
      summary: "Revoke the log's share link",
      tag,
      params: LogIdParams,
      responses: { 200: { description: 'Revoked', data: RevokedShareSchema } },
      errors: { 404: 'No such log, or it has no share link (SHARE_NOT_FOUND)' },
      handler: async ({ account, params }) => ({ data: await shares.revoke(account, params.logId) }),
    }),
  ];
}
