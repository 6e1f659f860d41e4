import { z } from 'zod';

export const CreateShareBody = z.object({
  expiresInHours: z
    .number({ error: 'expiresInHours must be a number of hours.' })
    .gt(0, { error: 'expiresInHours must be greater than 0 and at most 720.' })
    .max(720, { error: 'expiresInHours must be greater than 0 and at most 720.' })
    .optional()
    .transform((v) => v ?? 24)
    .meta({ description: 'Hours until the link expires: > 0, at most 720 (30 days); default 24.' }),
  redact: z
    .boolean({ error: 'redact must be true or false.' })
    .optional()
    .transform((v) => v ?? true)
    .meta({ description: 'Hide credential and signature header values; default true.' }),
});

export const ShareSchema = z
  .object({
    logId: z.string(),
    url: z.string(),
    expiresAt: z.string(),
    expiresInHours: z.number(),
    redacted: z.boolean(),
    localOnly: z.boolean(),
    browserNotice: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Share' });

export const RevokedShareSchema = z.object({ logId: z.string(), revoked: z.literal(true) });
