import { z } from 'zod';
import { booleanLike, HEADER_NAME, httpUrl, optionalText, requiredString } from '../http/schemas.ts';
import { parseValidationType, VALIDATION_TYPES } from './validation-types.ts';

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
    description: `One of ${VALIDATION_TYPES.join(', ')}. Matched case-insensitively with - and _ alike; aliases hmac, hmac-sha256, generic.`,
  });

const signatureHeader = z
  .string({ error: 'signatureHeader must be a string or null.' })
  .max(100, { error: 'signatureHeader must be at most 100 characters.' })
  .regex(HEADER_NAME, { error: 'signatureHeader must be a valid HTTP header name.' })
  .nullable()
  .optional();

const toleranceSeconds = z
  .number({ error: 'toleranceSeconds must be a number.' })
  .int({ error: 'toleranceSeconds must be a whole number.' })
  .min(1, { error: 'toleranceSeconds must be between 1 and 604800.' })
  .max(604800, { error: 'toleranceSeconds must be between 1 and 604800.' })
  .nullable()
  .optional();

export const CreateEndpointBody = z.object({
  name: requiredString('name', 200),
  validationType,
  webhookSecret: z
    .string({ error: 'webhookSecret must be a string.' })
    .min(1, { error: 'webhookSecret must not be empty.' })
    .max(1000, { error: 'webhookSecret must be at most 1000 characters.' })
    .nullable()
    .optional(),
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

export const EndpointSchema = z
  .object({
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

export const EndpointListSchema = z.object({ endpoints: z.array(EndpointSchema), total: z.number() });
export const DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export const RegeneratedSchema = z.object({
  id: z.string(),
  webhookSecret: z.string(),
  previousSecretExpiresAt: z.string().nullable(),
});
