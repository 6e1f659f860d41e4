import { z } from 'zod';
import { booleanLike, HEADER_NAME, httpUrl, optionalText, requiredString } from '../http/schemas.ts';
import {
  BODILESS_STATUSES,
  CUSTOM_RESPONSE_LIMITS as LIMITS,
  HEADER_VALUE,
  isCookieHeader,
  isReservedResponseHeader,
  LOG_ID_HEADER,
} from './custom-response.ts';
import { DOCUMENTED_ALIASES, parseValidationType, TIMESTAMPED_TYPES, VALIDATION_TYPES } from './validation-types.ts';

const validationType = z
  .unknown()
  .transform((v, ctx) => {
    try {
      return parseValidationType(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e) });
      return z.NEVER;
    }
  })
  .meta({
    description:
      `One of ${VALIDATION_TYPES.join(', ')}. Matched case-insensitively with - and _ alike; aliases ${DOCUMENTED_ALIASES}. ` +
      'Headers checked: stripe Stripe-Signature; github X-Hub-Signature-256; shopify X-Shopify-Hmac-Sha256; ' +
      'slack X-Slack-Signature + X-Slack-Request-Timestamp; standard_webhooks webhook-id + webhook-timestamp + webhook-signature; ' +
      'hmac_sha256 X-Webhook-Signature (or signatureHeader).',
  });

const signatureHeader = z
  .string({ error: 'signatureHeader must be a string or null.' })
  .max(100, { error: 'signatureHeader must be at most 100 characters.' })
  .regex(HEADER_NAME, { error: 'signatureHeader must be a valid HTTP header name.' })
  .nullable()
  .optional()
  .meta({ description: 'The header carrying the signature (hmac_sha256 only; default X-Webhook-Signature).' });

const toleranceSeconds = z
  .number({ error: 'toleranceSeconds must be a number.' })
  .int({ error: 'toleranceSeconds must be a whole number.' })
  .min(1, { error: 'toleranceSeconds must be between 1 and 604800.' })
  .max(604800, { error: 'toleranceSeconds must be between 1 and 604800.' })
  .nullable()
  .optional()
  .meta({
    description: `Allowed clock difference in seconds (default 300): stripe checks only the age of a timestamp, slack and standard_webhooks both directions; only for schemes with a timestamp: ${TIMESTAMPED_TYPES.join(', ')}.`,
  });

const statusRange = `between ${LIMITS.minStatus} and ${LIMITS.maxStatus}`;
const delayRange = `between 0 and ${LIMITS.maxDelayMs}`;

const responseHeader = z.object(
  {
    name: z
      .string({ error: 'name must be a string.' })
      .min(1, { error: 'name must not be empty.' })
      .max(100, { error: 'name must be at most 100 characters.' })
      .regex(HEADER_NAME, { error: 'name must be a valid HTTP header name.' })
      .refine((n) => !isReservedResponseHeader(n), {
        error: (i) =>
          `"${String(i.input)}" cannot be set: the receiver writes Content-Length, the connection headers and ${LOG_ID_HEADER} itself.`,
      })
      .refine((n) => !isCookieHeader(n), {
        error: (i) =>
          `"${String(i.input)}" cannot be set: a custom response never sets a cookie (cookies ignore ports, so it would reach the Hookscope UI on this machine).`,
      }),
    value: z
      .string({ error: 'value must be a string.' })
      .max(LIMITS.maxHeaderValueChars, { error: `value must be at most ${LIMITS.maxHeaderValueChars} characters.` })
      .regex(HEADER_VALUE, {
        error:
          'value may hold visible ASCII or Latin-1 characters, spaces and tabs, but no line break or control byte.',
      }),
  },
  { error: 'each header must be an object { name, value }.' },
);

const customResponse = z
  .object(
    {
      status: z
        .number({ error: `status must be a number ${statusRange}.` })
        .int({ error: `status must be a whole number ${statusRange}.` })
        .min(LIMITS.minStatus, { error: `status must be ${statusRange} (1xx is not a final answer).` })
        .max(LIMITS.maxStatus, { error: `status must be ${statusRange}.` }),
      headers: z
        .array(responseHeader, { error: 'headers must be an array of { name, value } objects.' })
        .max(LIMITS.maxHeaders, { error: `headers must hold at most ${LIMITS.maxHeaders} entries.` })
        .default([]),
      body: z
        .string({ error: 'body must be a string.' })
        .refine((b) => Buffer.byteLength(b, 'utf8') <= LIMITS.maxBodyBytes, {
          error: `body must be at most ${LIMITS.maxBodyBytes} bytes (UTF-8).`,
        })
        .default(''),
      delayMs: z
        .number({ error: `delayMs must be a number of milliseconds ${delayRange}.` })
        .int({ error: `delayMs must be a whole number of milliseconds ${delayRange}.` })
        .min(0, { error: `delayMs must be ${delayRange}.` })
        .max(LIMITS.maxDelayMs, { error: `delayMs must be ${delayRange} (at most 30 s).` })
        .default(0),
    },
    { error: 'customResponse must be an object { status, headers?, body?, delayMs? } or null.' },
  )
  .superRefine((r, ctx) => {
    if (BODILESS_STATUSES.has(r.status) && r.body !== '') {
      ctx.addIssue({
        code: 'custom',
        path: ['body'],
        message: `body must be empty: a ${r.status} answer carries none.`,
      });
    }
  })
  .nullable()
  .optional()
  .meta({
    description:
      `What the receiver answers accepted deliveries with instead of 200 { id }: status (${statusRange}), headers ` +
      `(name/value pairs, in order; not Content-Length, Transfer-Encoding, connection headers, Set-Cookie or ${LOG_ID_HEADER}), ` +
      `body (a string of at most ${LIMITS.maxBodyBytes} bytes) and delayMs (${delayRange}), waited after the delivery is stored. ` +
      'Refusals (400, 404, 410, 413, 429...) keep their normal answers. Every custom answer also carries ' +
      `Content-Security-Policy: sandbox; default-src 'none' and X-Content-Type-Options: nosniff, and it is sent only ` +
      'on the receiver listener and through the tunnel: /webhook/* on the API address (the UI origin) answers 200 { id }. null removes it.',
  });

export const CreateEndpointBody = z.object({
  name: requiredString('name', 200),
  validationType,
  webhookSecret: z
    .string({ error: 'webhookSecret must be a string.' })
    .min(1, { error: 'webhookSecret must not be empty.' })
    .max(1000, { error: 'webhookSecret must be at most 1000 characters.' })
    .nullable()
    .optional()
    .meta({
      description:
        'Required for every type but none. standard_webhooks: whsec_<base64> or plain base64 (the key is its decoded bytes); others: used as UTF-8.',
    }),
  description: optionalText('description', 2000),
  forwardUrl: httpUrl('forwardUrl').nullable().optional(),
  signatureHeader,
  toleranceSeconds,
  customResponse,
});

export const UpdateEndpointBody = z.object({
  name: requiredString('name', 200).optional(),
  description: optionalText('description', 2000),
  isActive: booleanLike('isActive').optional(),
  active: booleanLike('active').optional(),
  forwardUrl: httpUrl('forwardUrl').nullable().optional(),
  signatureHeader,
  toleranceSeconds,
  customResponse,
});

export const RegenerateSecretBody = z.object({
  webhookSecret: z
    .string({ error: 'webhookSecret must be a string.' })
    .min(8, { error: 'webhookSecret must be at least 8 characters.' })
    .max(1000, { error: 'webhookSecret must be at most 1000 characters.' })
    .optional(),
});

export const SetSecretBody = z.object(
  {
    webhookSecret: z
      .string({
        error: (i) => (i.input === undefined ? 'webhookSecret is required.' : 'webhookSecret must be a string.'),
      })
      .min(1, { error: 'webhookSecret must not be empty.' })
      .max(1000, { error: 'webhookSecret must be at most 1000 characters.' })
      .meta({
        description:
          "The sender's signing secret, exactly as the sender shows it. standard_webhooks: whsec_<base64> or plain base64; others: used as UTF-8.",
      }),
  },
  { error: 'The request body must be a JSON object { webhookSecret }.' },
);

export const EndpointIdParams = z.object({ endpointId: z.string().min(1).max(100) });

// ---- Response shapes: the wire types below are inferred from them (one source).

export const CustomResponseSchema = z
  .strictObject({
    status: z.number().int(),
    headers: z.array(z.strictObject({ name: z.string(), value: z.string() })),
    body: z.string(),
    delayMs: z.number().int(),
  })
  .meta({ id: 'CustomResponse' });

/** The endpoint object of the API: no secret, ever (hasSecret says whether one is set). */
export const EndpointSchema = z
  .strictObject({
    id: z.string(),
    url: z.string(),
    localUrl: z.string(),
    publicUrl: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    validationType: z.enum(VALIDATION_TYPES),
    isActive: z.boolean(),
    signatureHeader: z.string().nullable(),
    toleranceSeconds: z.number().nullable(),
    forwardUrl: z.string().nullable(),
    customResponse: CustomResponseSchema.nullable().meta({
      description: 'The answer to accepted deliveries; null: the default 200 { success, data: { id } }.',
    }),
    hasSecret: z.boolean(),
    previousSecretExpiresAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Endpoint' });

export const EndpointListSchema = z.strictObject({ endpoints: z.array(EndpointSchema), total: z.number() });
export const DeletedSchema = z.strictObject({ id: z.string(), deleted: z.literal(true) });
export const RegeneratedSchema = z.strictObject({
  id: z.string(),
  webhookSecret: z.string(),
  previousSecretExpiresAt: z.string().nullable(),
});

export const SecretSetSchema = z.strictObject({
  id: z.string(),
  previousSecretExpiresAt: z.string().nullable().meta({
    description:
      'Until when the previous secret still verifies (ISO 8601), as the endpoint object shows it; null when none does. Setting the secret the endpoint already has changes nothing: an earlier grace period keeps running.',
  }),
});

export const TestDeliveryBody = z.object({
  payload: z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], {
      error: 'payload must be a JSON object, an array or a string.',
    })
    .optional()
    .meta({
      description:
        "What to send instead of the scheme's sample: an object or array is sent as JSON, a string as is (application/json when it parses as JSON, else text/plain).",
    }),
});

export const TestDeliverySchema = z.strictObject({
  logId: z
    .string()
    .nullable()
    .meta({ description: 'The log the receiver stored, or null when it stored none (it answered without one).' }),
  status: z.number().int().meta({ description: "The receiver's HTTP status: 200 when the signature was accepted." }),
});

export type EndpointView = z.infer<typeof EndpointSchema>;
export type EndpointList = z.infer<typeof EndpointListSchema>;
export type Regenerated = z.infer<typeof RegeneratedSchema>;
export type SecretSet = z.infer<typeof SecretSetSchema>;
export type TestDeliveryResult = z.infer<typeof TestDeliverySchema>;
