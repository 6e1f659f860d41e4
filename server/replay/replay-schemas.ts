import { z } from 'zod';
import { HEADER_NAME, queryInt } from '../http/schemas.ts';
import { checkHttpUrl } from '../support/absolute-url.ts';
import { COMPUTED_HEADERS } from './outgoing-request.ts';
import { MAX_TIMEOUT_MS, REPLAY_METHODS } from './replay-limits.ts';
import { FORWARD_STATES, REPLAY_TRIGGERS } from './replay-states.ts';

const targetUrl = z
  .unknown()
  .transform((v, ctx) => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (v === undefined || v === null || v === '')
      return fail('targetUrl is required (the absolute http:// or https:// URL to send to).');
    if (typeof v !== 'string') return fail('targetUrl must be a string.');
    if (v.length > 2048) return fail('targetUrl must be at most 2048 characters.');
    const checked = checkHttpUrl(v);
    if (!checked.ok) {
      return fail(
        checked.reason === 'not_http'
          ? `targetUrl must use http or https (got ${checked.protocol}).`
          : `targetUrl must be an absolute http:// or https:// URL (got "${v}").`,
      );
    }
    const { url } = checked;
    if (url.username || url.password)
      return fail('targetUrl must not carry credentials; send an Authorization header instead.');
    return url.href;
  })
  .meta({ description: 'Absolute http:// or https:// URL to send the delivery to.', type: 'string' });

const method = z
  .string({ error: `method must be one of: ${REPLAY_METHODS.join(', ')}.` })
  .transform((m) => m.toUpperCase())
  .refine((m): m is (typeof REPLAY_METHODS)[number] => (REPLAY_METHODS as readonly string[]).includes(m), {
    error: `method must be one of: ${REPLAY_METHODS.join(', ')}.`,
  })
  .optional();

// Header values are sent as given: no CR, LF or NUL (they would split or end the header).
const INVALID_VALUE = /[\r\n\0]/;

const headers = z
  .record(z.string(), z.union([z.string(), z.null()]), {
    error: 'headers must be an object of header names to a string (set or replace) or null (remove).',
  })
  .superRefine((h, ctx) => {
    for (const [name, value] of Object.entries(h)) {
      if (!HEADER_NAME.test(name))
        ctx.addIssue({ code: 'custom', path: [name], message: `headers: "${name}" is not a valid header name.` });
      else if (COMPUTED_HEADERS.has(name.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `headers.${name} cannot be set: Content-Length and connection headers are computed for the request that is sent.`,
        });
      } else if (value !== null && (INVALID_VALUE.test(value) || value.length > 8192)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `headers.${name} must be at most 8192 characters without line breaks.`,
        });
      }
    }
  })
  .optional();

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const ReplayBody = z
  .object({
    targetUrl,
    method,
    headers,
    body: z.string({ error: 'body must be a string (use bodyEncoding "base64" for binary bytes).' }).optional(),
    bodyEncoding: z.enum(['utf8', 'base64'], { error: 'bodyEncoding must be utf8 or base64.' }).optional(),
    resign: z.boolean({ error: 'resign must be true or false.' }).optional(),
    timeoutMs: z
      .number({ error: 'timeoutMs must be a number of milliseconds.' })
      .int({ error: 'timeoutMs must be a whole number of milliseconds.' })
      .min(1, { error: `timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}.` })
      .max(MAX_TIMEOUT_MS, { error: `timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}.` })
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.bodyEncoding === 'base64' && b.body !== undefined && !BASE64.test(b.body.replace(/\s+/g, ''))) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'body is not valid base64 (bodyEncoding is base64).' });
    }
  });

/** `POST /api/replay/:webhookLogId/outgoing`: the request a replay to targetUrl would send, built but not sent. */
export const OutgoingBody = z.object({
  targetUrl,
  resign: z.boolean({ error: 'resign must be true or false.' }).optional(),
});

export const LogIdParams = z.object({ webhookLogId: z.string().min(1).max(100) });
export const AliasParams = z.object({ id: z.string().min(1).max(100) });
export const ReplayParams = LogIdParams.extend({ replayId: z.string().min(1).max(100) });
export const EndpointParams = z.object({ endpointId: z.string().min(1).max(100) });

export const HistoryQuery = z.object({
  limit: queryInt('limit', 1, 200, 50),
  offset: queryInt('offset', 0, 100_000_000, 0),
});

const replayId = (field: 'a' | 'b') =>
  z
    .string({
      error: (i) =>
        i.input === undefined ? `${field} is required (a replay id of this log).` : `${field} must be given once.`,
    })
    .min(1, { error: `${field} must not be empty.` })
    .max(100, { error: `${field} must be at most 100 characters.` });

export const DiffQuery = z.object({ a: replayId('a'), b: replayId('b') });

// ---- Response shapes: the wire types below are inferred from them (one source).

const Failure = z.strictObject({ code: z.string(), message: z.string() }).nullable();
const Pairs = z.array(z.tuple([z.string(), z.string()]));

export const HistoryEntrySchema = z
  .object({
    id: z.string(),
    logId: z.string(),
    endpointId: z.string(),
    targetUrl: z.string(),
    method: z.string(),
    status: z.number().nullable(),
    responseTime: z.number(),
    error: Failure,
    trigger: z.enum(REPLAY_TRIGGERS),
    createdAt: z.string(),
    edited: z.boolean().meta({
      description:
        'The method, a header or the body was changed before sending (re-signing alone is not an edit); ' +
        'GET /api/replay/{webhookLogId}/replays/{replayId} shows the request as sent.',
    }),
  })
  .meta({ id: 'ReplayHistoryEntry' });

export const ReplayDetailSchema = HistoryEntrySchema.extend({
  requestHeaders: Pairs,
  /** Lower-case names; a header sent more than once is an array. */
  responseHeaders: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  responseRawHeaders: Pairs,
  responseBody: z.string(),
  bodyEncoding: z.enum(['utf8', 'base64']),
  truncated: z.boolean(),
}).meta({ id: 'ReplayDetail' });

export const ReplayExchangeSchema = ReplayDetailSchema.extend({
  requestBody: z.string().meta({ description: 'The body as sent, byte for byte, in requestBodyEncoding.' }),
  requestBodyEncoding: z.enum(['utf8', 'base64']).meta({
    description: 'utf8 when the bytes sent are valid UTF-8, else base64.',
  }),
  requestBodySize: z.number().int().meta({ description: 'The whole size of the body sent, in bytes.' }),
  requestBodyTruncated: z.boolean().meta({
    description:
      'An edited body is kept up to its first 64 KiB (like a response): true when requestBody is only that part.',
  }),
}).meta({
  id: 'ReplayExchange',
  description: 'One attempt: the request as sent (method, targetUrl, requestHeaders in order, body) and the response.',
});

export const OutgoingRequestSchema = z
  .strictObject({
    method: z.string(),
    url: z.string().meta({
      description: "targetUrl with the delivery's sub-path below it and its query appended, as forwarding joins them.",
    }),
    headers: Pairs.meta({
      description:
        'In order and case: the original headers without hop-by-hop ones, Host and Content-Length for this ' +
        "target, the engine's X-Forwarded-*, then (resign) a fresh signature of the endpoint's scheme.",
    }),
    body: z.string().meta({ description: 'The exact bytes received, in bodyEncoding.' }),
    bodyEncoding: z.enum(['utf8', 'base64']),
  })
  .meta({
    id: 'OutgoingRequest',
    description: 'What the engine would send for a log; the caller sends it (hookscope listen, from the laptop).',
  });

export const HistorySchema = z.strictObject({ history: z.array(HistoryEntrySchema), total: z.number() });

const Side = z.strictObject({
  id: z.string(),
  targetUrl: z.string(),
  method: z.string(),
  status: z.number().nullable(),
  error: Failure,
  createdAt: z.string(),
  truncated: z.boolean(),
});

export const DiffSchema = z.strictObject({
  a: Side,
  b: Side,
  identical: z.boolean().meta({ description: 'Same status, headers and body.' }),
  status: z.strictObject({ a: z.number().nullable(), b: z.number().nullable(), changed: z.boolean() }),
  headers: z
    .strictObject({
      added: z.array(z.strictObject({ name: z.string(), value: z.string() })),
      removed: z.array(z.strictObject({ name: z.string(), value: z.string() })),
      changed: z.array(z.strictObject({ name: z.string(), a: z.string(), b: z.string() })),
    })
    .meta({ description: 'What changed from a to b; names lower-case, repeated headers joined with ", ".' }),
  body: z.strictObject({
    changed: z.boolean(),
    format: z.enum(['json', 'text', 'binary']).meta({
      description:
        'json: both bodies parsed, nest at most 256 levels, and were pretty-printed before diffing; text: otherwise (deeper JSON too); binary: compared as bytes only.',
    }),
    patch: z.string().meta({ description: 'Unified diff (empty when unchanged or binary).' }),
    changes: z.array(
      z.strictObject({ value: z.string(), added: z.boolean(), removed: z.boolean(), count: z.number() }),
    ),
    sizes: z.strictObject({ a: z.number(), b: z.number() }),
  }),
});

export const ForwardStatusSchema = z
  .object({
    endpointId: z.string(),
    forwardUrl: z.string().nullable(),
    state: z.enum(FORWARD_STATES),
    pending: z.number(),
    nextAttemptAt: z.string().nullable(),
    lastError: z.strictObject({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
    attempts: z.number(),
    lastDeliveredAt: z.string().nullable(),
  })
  .meta({ id: 'ForwardStatus' });

export type ReplayHistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type ReplayDetail = z.infer<typeof ReplayDetailSchema>;
export type ReplayExchange = z.infer<typeof ReplayExchangeSchema>;
export type OutgoingRequestView = z.infer<typeof OutgoingRequestSchema>;
export type ReplayHistoryPage = z.infer<typeof HistorySchema>;
export type ReplayDiffView = z.infer<typeof DiffSchema>;
export type ForwardStatus = z.infer<typeof ForwardStatusSchema>;
