import { z } from 'zod';
import { booleanLike, optionalQueryInt, queryInt } from '../http/schemas.ts';
import { SCHEME_IDS } from '../signatures/scheme-ids.ts';
import { VERIFICATION_REASONS } from '../signatures/verification.ts';
import { EVENT_TYPE_MAX_LENGTH } from './event-type.ts';
import { LOG_STATUSES } from './log-status.ts';
import { MAX_DELETE_IDS } from './log-types.ts';
import { ANSWER_KINDS } from './answer-kinds.ts';

export const MAX_PAGE = 200;

const single = (field: string) => z.string({ error: `${field} must be given once, as a string.` });

const LogListFields = z.object({
  limit: queryInt('limit', 1, MAX_PAGE, 50),
  // No default here: a page after a cursor refuses an offset, so it must see whether one came (the list starts at 0).
  offset: optionalQueryInt('offset', 0, 100_000_000),
  status: z.enum(LOG_STATUSES, { error: `status must be one of: ${LOG_STATUSES.join(', ')}.` }).optional(),
  search: single('search').max(500, { error: 'search must be at most 500 characters.' }).optional(),
  endpointId: single('endpointId').min(1).max(100, { error: 'endpointId must be at most 100 characters.' }).optional(),
  pinned: booleanLike('pinned').optional().meta({ description: 'true: only pinned logs; false: only unpinned ones.' }),
  eventType: single('eventType')
    .min(1, { error: 'eventType must not be empty.' })
    .max(EVENT_TYPE_MAX_LENGTH, { error: `eventType must be at most ${EVENT_TYPE_MAX_LENGTH} characters.` })
    .optional()
    .meta({ description: 'Only logs of this event type (exact match, as `eventType` shows it).' }),
  after: single('after')
    .regex(/^[A-Za-z0-9_]{1,100}$/, { error: 'after must be a log id (log_ followed by letters and digits).' })
    .optional()
    .meta({
      description:
        "A cursor: only the logs that arrived after this log (the store's arrival order), oldest first; the " +
        'other filters still apply, `total` counts the logs after it that pass them. Not with offset or search. ' +
        'A log the account does not have (deleted, evicted, never stored) is 404 CURSOR_NOT_FOUND.',
    }),
});

export const LogListQuery = LogListFields.superRefine((q, ctx) => {
  for (const field of ['offset', 'search'] as const) {
    if (q.after !== undefined && q[field] !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `${field} cannot be used with after: a page after a cursor starts right after that log; leave ${field} out.`,
      });
    }
  }
});

export const WebhookListQuery = LogListFields.pick({ limit: true, offset: true, endpointId: true });

export const LogIdParams = z.object({ logId: z.string().min(1).max(100) });

export const EndpointLogsParams = z.object({ endpointId: z.string().min(1).max(100) });

export const UpdateLogBody = z.object({
  pinned: z
    .union([z.boolean(), z.literal('true'), z.literal('false'), z.literal(1), z.literal(0)], {
      error: (i) => (i.input === undefined ? 'pinned is required.' : 'pinned must be true or false.'),
    })
    .transform((v) => v === true || v === 'true' || v === 1)
    .meta({ description: 'Pin (true) or unpin (false); setting the current value again changes nothing.' }),
});

export const DeleteLogsBody = z.object({
  ids: z
    .array(
      z
        .string({ error: 'ids must hold log ids (strings).' })
        .min(1, { error: 'ids must not hold an empty id.' })
        .max(100, { error: 'ids must hold ids of at most 100 characters.' }),
      { error: (i) => (i.input === undefined ? 'ids is required.' : 'ids must be an array of log ids.') },
    )
    .min(1, { error: 'ids must hold at least one log id.' })
    .max(MAX_DELETE_IDS, { error: `ids must hold at most ${MAX_DELETE_IDS} log ids.` }),
});

// ---- Response shapes: the wire types below are inferred from them (one source).

const Headers = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export const VerificationSchema = z
  .strictObject({
    scheme: z.enum(SCHEME_IDS),
    result: z.enum(['valid', 'invalid', 'skipped']),
    reason: z.enum(VERIFICATION_REASONS).nullable().meta({ description: 'null when valid or skipped.' }),
    detail: z.string().nullable().meta({ description: 'A short sentence for people when verification failed.' }),
    matchedSecret: z.enum(['current', 'previous']).nullable(),
  })
  .meta({ id: 'Verification' });

export const LogSummarySchema = z
  .strictObject({
    id: z.string(),
    endpointId: z.string(),
    method: z.string(),
    path: z.string(),
    query: Headers.meta({ description: 'Query parameters; a repeated one is an array.' }),
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
    verification: VerificationSchema,
    pinned: z.boolean().meta({ description: 'A pinned log is never evicted by retention.' }),
    eventType: z
      .string()
      .nullable()
      .meta({
        description:
          "The event the delivery names, such as checkout.session.completed or pull_request.opened (GitHub's " +
          "X-GitHub-Event with the body's action, Shopify's X-Shopify-Topic, a JSON body's type as Stripe and " +
          'Standard Webhooks send it, ...); null when it names none or was stored before event types were kept.',
      }),
  })
  .meta({ id: 'LogSummary' });

/** A log with its headers and body (log-views.ts, detailView): the detail's base, a share link's JSON, a JSON export. */
export const LogDetailSchema = LogSummarySchema.extend({
  headers: Headers.meta({ description: 'Lower-case names; a repeated header is an array.' }),
  rawHeaders: z.array(z.tuple([z.string(), z.string()])),
  body: z.string(),
  bodyEncoding: z.enum(['utf8', 'base64']),
});

export const SenderAnswerSchema = z.strictObject({
  kind: z.enum(ANSWER_KINDS).meta({
    description:
      'accepted: the `{ success, data: { id } }` envelope; verification_failed: the 400 envelope; ' +
      'refused: the 413, 408 or 503 envelope of a body the receiver stopped reading; ' +
      "custom: the endpoint's custom response as it was then (only on the receiver and tunnel listeners).",
  }),
  status: z.number(),
  headers: z.array(z.tuple([z.string(), z.string()])).meta({
    description:
      'The headers the engine wrote, in order and case; not those Node adds for the connection ' +
      '(Date, Connection, Keep-Alive).',
  }),
  body: z.string(),
  bodyEncoding: z.enum(['utf8', 'base64']),
  delayMs: z.number().meta({ description: "How long a custom answer waited (its endpoint's delay); else 0." }),
});

/** One log as `GET /api/webhooks/logs/:logId` shows it. */
export const LogDetailViewSchema = LogDetailSchema.extend({
  answer: SenderAnswerSchema.nullable().meta({
    description:
      'What the receiver answered the sender, byte for byte (a custom answer whose sender hung up during its ' +
      'delay was never received). null when not known: see answerUnknown.',
  }),
  answerUnknown: z.string().nullable().meta({
    description: 'Why answer is null (a log stored before answers were recorded); null when answer is given.',
  }),
  explainable: z.boolean().meta({
    description:
      'Whether POST /api/webhooks/logs/{logId}/analyze has something to explain: a failed verification, or a ' +
      'failed replay or forward among its newest 50. Live: a log.updated event with change explainable.',
  }),
}).meta({ id: 'LogDetail' });

export const LogPageSchema = z.strictObject({
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

export const LogDeletedViewSchema = z.strictObject({ id: z.string(), deleted: z.literal(true) });

export const LogsDeletedSchema = z.strictObject({
  deleted: z.number().meta({ description: 'How many logs were deleted.' }),
  deletedIds: z.array(z.string()).meta({ description: 'The deleted logs, in request order.' }),
  notFound: z.array(z.string()).meta({
    description:
      "Ids that name no log of this account (unknown, already deleted or another account's), in request order.",
  }),
});

export const EndpointLogsClearedSchema = z.strictObject({
  endpointId: z.string(),
  deleted: z.number().meta({ description: 'How many logs were deleted.' }),
  pinnedKept: z.number().meta({ description: "How many of the endpoint's logs were kept because they are pinned." }),
});

export type LogVerification = z.infer<typeof VerificationSchema>;
export type LogSummary = z.infer<typeof LogSummarySchema>;
export type LogDetail = z.infer<typeof LogDetailSchema>;
export type LogDetailView = z.infer<typeof LogDetailViewSchema>;
export type SenderAnswerView = z.infer<typeof SenderAnswerSchema>;
export type LogPage = z.infer<typeof LogPageSchema>;
export type WebhookPage = z.infer<typeof WebhookPageSchema>;
export type LogDeletedView = z.infer<typeof LogDeletedViewSchema>;
export type LogsDeleted = z.infer<typeof LogsDeletedSchema>;
export type EndpointLogsCleared = z.infer<typeof EndpointLogsClearedSchema>;
