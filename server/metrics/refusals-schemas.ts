import { z } from 'zod';
import { REFUSAL_REASONS } from './refusal-reasons.ts';

/** How far back the refusals read looks; the live event always carries `1m`. */
export const REFUSAL_WINDOWS = ['1m', '1h'] as const;
export type RefusalWindow = (typeof REFUSAL_WINDOWS)[number];

export const RefusalsQuerySchema = z.object({
  window: z
    .enum(REFUSAL_WINDOWS, { error: `window must be one of: ${REFUSAL_WINDOWS.join(', ')}.` })
    .optional()
    .transform((w) => w ?? '1m')
    .meta({ description: 'How far back to count (default 1m).' }),
  endpointId: z
    .string({ error: 'endpointId must be given once, as a string.' })
    .min(1, { error: 'endpointId must not be empty.' })
    .max(100, { error: 'endpointId must be at most 100 characters.' })
    .optional()
    .meta({ description: "Only this endpoint (another account's id matches nothing)." }),
});

// ---- Response shape: the wire type below is inferred from it (one source).

const ReasonCount = z.strictObject({
  reason: z.enum(REFUSAL_REASONS),
  count: z.number(),
  lastAt: z.string().meta({ description: 'The latest refusal for this reason in the window.' }),
});

export const RefusalsSchema = z
  .strictObject({
    window: z.enum(REFUSAL_WINDOWS),
    from: z.string().meta({
      description:
        'Start of the first minute counted (inclusive): counts are kept per whole minute, so the window starts at ' +
        'the minute that held now minus the window, and covers at least the whole window.',
    }),
    to: z.string().meta({ description: 'End of the current minute (exclusive).' }),
    total: z.number(),
    lastAt: z.string().nullable().meta({ description: 'The latest refusal in the window; null when none.' }),
    reasons: z.array(ReasonCount).meta({ description: 'Reasons with at least one refusal, most first.' }),
    endpoints: z
      .array(
        z.strictObject({
          endpointId: z.string(),
          total: z.number(),
          lastAt: z.string(),
          reasons: z.array(ReasonCount),
        }),
      )
      .meta({ description: 'Endpoints with at least one refusal, most first (current endpoints only).' }),
  })
  .meta({ id: 'Refusals' });

export type Refusals = z.infer<typeof RefusalsSchema>;
export type ReasonCount = z.infer<typeof ReasonCount>;
