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
  redactPath: z
    .boolean({ error: 'redactPath must be true or false.' })
    .optional()
    .transform((v) => v ?? false)
    .meta({
      description:
        'Hide every path segment after the first (`/services/[redacted]/[redacted]`), for senders that put a secret in the URL; default false.',
    }),
});

// ---- Response shapes: the wire types below are inferred from them (one source).

/** What POST /share answers; the only time the link (and so the token) is shown. */
export const ShareSchema = z
  .strictObject({
    logId: z.string(),
    url: z.string(),
    expiresAt: z.string(),
    expiresInHours: z.number(),
    redacted: z.boolean(),
    pathRedacted: z
      .boolean()
      .meta({ description: 'The page shows the path with every segment after the first hidden.' }),
    localOnly: z
      .boolean()
      .meta({ description: "No tunnel is online: the link points at this machine's receiver and works only here." }),
    browserNotice: z.string().nullable().meta({
      description:
        'Set when browsers meet a warning page on the public URL (localtunnel): what the teammate must do, or the exports to use instead.',
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'Share' });

export const RevokedShareSchema = z.strictObject({ logId: z.string(), revoked: z.literal(true) });

export type ShareView = z.infer<typeof ShareSchema>;
export type RevokedShare = z.infer<typeof RevokedShareSchema>;
