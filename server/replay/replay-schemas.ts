import { z } from 'zod';
import { HEADER_NAME, queryInt } from '../http/schemas.ts';
import { checkHttpUrl } from '../support/absolute-url.ts';
import { COMPUTED_HEADERS } from './outgoing-request.ts';
import { RESPONSE_CAP_BYTES, SEND_FAILURES } from './http-sender.ts';
import { MAX_REPORTED_RESPONSE_TIME_MS, MAX_TIMEOUT_MS, REPLAY_METHODS } from './replay-limits.ts';
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
  });

// Header values are sent as given: no CR, LF or NUL (they would split or end the header).
const INVALID_VALUE = /[\r\n\0]/;

const MAX_HEADER_VALUE = 8192;
const badValue = (value: string): boolean => INVALID_VALUE.test(value) || value.length > MAX_HEADER_VALUE;

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
      } else if (value !== null && badValue(value)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `headers.${name} must be at most ${MAX_HEADER_VALUE} characters without line breaks.`,
        });
      }
    }
  });

// Node parses at most 2000 headers of a message by default (maxHeadersCount): no request or response has more.
const MAX_HEADER_PAIRS = 2000;

/** Headers as sent or received: [name, value] pairs in order, each valid as `headers` requires. */
const headerList = (field: string) =>
  z
    .array(z.tuple([z.string(), z.string()]), {
      error: `${field} must be an array of [name, value] pairs of strings.`,
    })
    .max(MAX_HEADER_PAIRS, { error: `${field} must hold at most ${MAX_HEADER_PAIRS} headers.` })
    .superRefine((pairs, ctx) => {
      for (const [i, [name, value]] of pairs.entries()) {
        if (!HEADER_NAME.test(name))
          ctx.addIssue({ code: 'custom', path: [i], message: `${field}: "${name}" is not a valid header name.` });
        else if (badValue(value)) {
          ctx.addIssue({
            code: 'custom',
            path: [i],
            message: `${field}: ${name} must be at most ${MAX_HEADER_VALUE} characters without line breaks.`,
          });
        }
      }
    });

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const isBase64 = (s: string): boolean => BASE64.test(s.replace(/\s+/g, ''));

const body = z.string({ error: 'body must be a string (use bodyEncoding "base64" for binary bytes).' });
const bodyEncoding = z.enum(['utf8', 'base64'], { error: 'bodyEncoding must be utf8 or base64.' });
const resign = z.boolean({ error: 'resign must be true or false.' });

/** A body given in base64 must be base64. */
function checkBody(b: { body?: string; bodyEncoding?: 'utf8' | 'base64' }, ctx: z.RefinementCtx): void {
  if (b.bodyEncoding === 'base64' && b.body !== undefined && !isBase64(b.body)) {
    ctx.addIssue({ code: 'custom', path: ['body'], message: 'body is not valid base64 (bodyEncoding is base64).' });
  }
}

/** What a user may change of a delivery before it is sent: the same fields, and words, for replay and outgoing. */
const edits = {
  method: method.optional(),
  headers: headers.optional(),
  body: body.optional(),
  bodyEncoding: bodyEncoding.optional(),
  resign: resign.optional(),
};

export const ReplayBody = z
  .object({
    targetUrl,
    ...edits,
    timeoutMs: z
      .number({ error: 'timeoutMs must be a number of milliseconds.' })
      .int({ error: 'timeoutMs must be a whole number of milliseconds.' })
      .min(1, { error: `timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}.` })
      .max(MAX_TIMEOUT_MS, { error: `timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}.` })
      .optional(),
  })
  .superRefine(checkBody);

/**
 * `POST /api/replay/:webhookLogId/outgoing`: the request a replay to targetUrl would
 * send, with the same edits as a replay, built but not sent.
 */
export const OutgoingBody = z.object({ targetUrl, ...edits }).superRefine(checkBody);

// http-sender's failure messages quote the target URL (up to 2048 characters) and the system's reason.
const MAX_FAILURE_MESSAGE = 4096;

/**
 * `POST /api/replay/:webhookLogId/sent`: a request a client sent itself and what
 * came back, recorded as the engine records its own replays (http-sender's result:
 * a response with its status, or a failure with no response at all).
 */
export const SentBody = z
  .strictObject(
    {
      targetUrl,
      method,
      requestHeaders: headerList('requestHeaders'),
      body: body.optional().meta({
        description:
          "The body sent, only when it differs from the log's bytes (an edited body); absent: the log's bytes.",
      }),
      bodyEncoding: bodyEncoding.optional(),
      edited: z.boolean({ error: 'edited must be true or false.' }).meta({
        description: 'The method, a header or the body was changed (as outgoing answered: its `edited`).',
      }),
      status: z
        .number({ error: 'status must be a whole number from 100 to 599, or null when no response came.' })
        .int({ error: 'status must be a whole number from 100 to 599, or null when no response came.' })
        .min(100, { error: 'status must be a whole number from 100 to 599, or null when no response came.' })
        .max(599, { error: 'status must be a whole number from 100 to 599, or null when no response came.' })
        .nullable(),
      responseTime: z
        .number({ error: 'responseTime must be a number of milliseconds.' })
        .int({ error: 'responseTime must be a whole number of milliseconds.' })
        .min(0, { error: `responseTime must be between 0 and ${MAX_REPORTED_RESPONSE_TIME_MS}.` })
        .max(MAX_REPORTED_RESPONSE_TIME_MS, {
          error: `responseTime must be between 0 and ${MAX_REPORTED_RESPONSE_TIME_MS}.`,
        }),
      responseHeaders: headerList('responseHeaders'),
      responseBody: z
        .string({ error: 'responseBody must be a base64 string.' })
        .refine(isBase64, { error: 'responseBody is not valid base64.', abort: true })
        // Refused rather than cut: the client keeps the first bytes and says so, as http-sender does.
        .refine((s) => Buffer.from(s, 'base64').length <= RESPONSE_CAP_BYTES, {
          error: `responseBody must be at most ${RESPONSE_CAP_BYTES} bytes (keep the first ${RESPONSE_CAP_BYTES} and set responseTruncated).`,
        })
        .meta({ description: `The response body, base64, at most its first ${RESPONSE_CAP_BYTES} bytes.` }),
      responseTruncated: z.boolean({ error: 'responseTruncated must be true or false.' }),
      error: z
        .strictObject(
          {
            code: z.enum(SEND_FAILURES, { error: `error.code must be one of: ${SEND_FAILURES.join(', ')}.` }),
            message: z
              .string({ error: 'error.message must be a string.' })
              .min(1, { error: 'error.message must not be empty.' })
              .max(MAX_FAILURE_MESSAGE, { error: `error.message must be at most ${MAX_FAILURE_MESSAGE} characters.` }),
          },
          { error: 'error must be an object with code and message, or null when a response came.' },
        )
        .nullable(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `${issue.keys.join(', ')}: not a field of a sent request's report.`
          : 'The request body must be a JSON object.',
    },
  )
  .superRefine((b, ctx) => {
    checkBody(b, ctx);
    // As the engine records its own attempts (http-sender): a status, or a failure with nothing received.
    if (b.status === null && b.error === null)
      ctx.addIssue({
        code: 'custom',
        path: ['status'],
        message: 'status is required when error is null (a response came), or error when none did.',
      });
    if (b.status !== null && b.error !== null)
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'error must be null when status is set.' });
    if (b.error !== null) {
      const leftovers: [string, boolean][] = [
        ['responseHeaders', b.responseHeaders.length > 0],
        ['responseBody', b.responseBody !== ''],
        ['responseTruncated', b.responseTruncated],
      ];
      for (const [field, set] of leftovers)
        if (set)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} must be empty (or false) when error is set: no response came.`,
          });
    }
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
    trigger: z.enum(REPLAY_TRIGGERS).meta({
      description:
        "manual: the engine sent it as a user asked (API, UI, CLI); forward: the endpoint's forwardUrl, as the " +
        'delivery arrived; client: a client (the desktop app) sent it from its own machine and reported it ' +
        '(POST /api/replay/{webhookLogId}/sent).',
    }),
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
        "target, the engine's X-Forwarded-*, the headers given (set, replaced or removed), then (resign) a " +
        "fresh signature of the endpoint's scheme over the body sent.",
    }),
    body: z.string().meta({ description: 'The exact bytes received (or the body given), in bodyEncoding.' }),
    bodyEncoding: z.enum(['utf8', 'base64']),
    edited: z.boolean().meta({
      description:
        'The method, a header or the body differs from a plain send to this target (re-signing alone is no edit): ' +
        'what to report as `edited` to POST /api/replay/{webhookLogId}/sent.',
    }),
  })
  .meta({
    id: 'OutgoingRequest',
    description:
      'What the engine would send for a log; the caller sends it (hookscope listen and the desktop app, from the laptop).',
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
