import { z } from 'zod';
import { queryInt } from '../http/schemas.ts';
import { LOG_STATUSES } from './log-types.ts';

export const MAX_PAGE = 200;

const single = (field: string) => z.string({ error: `${field} must be given once, as a string.` });

export const LogListQuery = z.object({
  limit: queryInt('limit', 1, MAX_PAGE, 50),
  offset: queryInt('offset', 0, 100_000_000, 0),
  status: z.enum(LOG_STATUSES, { error: `status must be one of: ${LOG_STATUSES.join(', ')}.` }).optional(),
  search: single('search').max(500, { error: 'search must be at most 500 characters.' }).optional(),
  endpointId: single('endpointId').min(1).max(100, { error: 'endpointId must be at most 100 characters.' }).optional(),
});

export const WebhookListQuery = LogListQuery.pick({ limit: true, offset: true, endpointId: true });

export const LogIdParams = z.object({ logId: z.string().min(1).max(100) });

const Verification = z.object({
  scheme: z.string(),
  result: z.enum(['valid', 'invalid', 'skipped']),
  reason: z.string().nullable(),
  detail: z.string().nullable(),
  matchedSecret: z.enum(['current', 'previous']).nullable(),
});

export const LogSummarySchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    method: z.string(),
    path: z.string(),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    contentType: z.string().nullable(),
    size: z.number().meta({ description: 'Bytes actually received (a refused body: up to where reading stopped).' }),
    declaredSize: z
      .number()
      .nullable()
      .meta({ description: 'The Content-Length the sender declared; null when it sent none.' }),
    storedSize: z.number(),
    truncated: z.boolean(),
    sourceIp: z.string().nullable(),
    receivedAt: z.string(),
    durationMs: z.number(),
    status: z.enum(LOG_STATUSES),
    verification: Verification,
  })
  .meta({ id: 'LogSummary' });

export const LogDetailSchema = LogSummarySchema.extend({
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  rawHeaders: z.array(z.tuple([z.string(), z.string()])),
  body: z.string(),
  bodyEncoding: z.enum(['utf8', 'base64']),
}).meta({ id: 'LogDetail' });

export const LogPageSchema = z.object({
  logs: z.array(LogSummarySchema),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  hasMore: z.boolean(),
});

export const WebhookPageSchema = z.object({
  webhooks: z.array(LogSummarySchema),
  total: z.number(),
  hasMore: z.boolean(),
});
