import { z } from 'zod';
import { booleanLike, HEADER_NAME, httpUrl, optionalText, requiredString } from '../http/schemas.ts';
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
});

export const UpdateEndpointBody = z.object({
  name: requiredString('name', 200).optional(),
  description: optionalText('description', 2000),
  isActive: booleanLike('isActive').optional(),
  active: booleanLike('active').optional(),
  forwardUrl: httpUrl('forwardUrl').nullable().optional(),
  signatureHeader,
  toleranceSeconds,
});

export const RegenerateSecretBody = z.object({
  webhookSecret: z
    .string({ error: 'webhookSecret must be a string.' })
    .min(8, { error: 'webhookSecret must be at least 8 characters.' })
    .max(1000, { error: 'webhookSecret must be at most 1000 characters.' })
    .optional(),
});

export const EndpointIdParams = z.object({ endpointId: z.string().min(1).max(100) });

// ---- Response shapes: the wire types below are inferred from them (one source).

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
export type TestDeliveryResult = z.infer<typeof TestDeliverySchema>;
