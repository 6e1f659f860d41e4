import { z } from 'zod';
import { DEFAULT_WINDOW, METRICS_WINDOWS } from './metrics-window.ts';

export const MetricsQuerySchema = z.object({
  window: z
    .enum(METRICS_WINDOWS, { error: `window must be one of: ${METRICS_WINDOWS.join(', ')}.` })
    .optional()
    .transform((w) => w ?? DEFAULT_WINDOW)
    .meta({ description: `Time window (default ${DEFAULT_WINDOW}).` }),
  endpointId: z
    .string({ error: 'endpointId must be given once, as a string.' })
    .min(1, { error: 'endpointId must not be empty.' })
    .max(100, { error: 'endpointId must be at most 100 characters.' })
    .optional()
    .meta({ description: "Only this endpoint (another account's id matches nothing)." }),
});

// ---- Response shape: the wire type below is inferred from it (one source).

const counts = {
  received: z.number(),
  success: z.number(),
  failed: z.number(),
  rejected: z.number(),
};
const nullableNumber = z.number().nullable();

export const MetricsReportSchema = z
  .strictObject({
    window: z.enum(METRICS_WINDOWS),
    from: z.string().meta({ description: 'Start of the first bucket (inclusive).' }),
    to: z.string().meta({ description: 'End of the last bucket (exclusive); the last bucket holds now.' }),
    bucketSeconds: z.number(),
    totals: z.strictObject(counts).meta({ description: 'received = success + failed + rejected' }),
    successRate: nullableNumber.meta({ description: 'success / received, 0..1; null when received is 0.' }),
    endpoints: z.array(
      z.strictObject({
        endpointId: z.string(),
        name: z.string(),
        ...counts,
        successRate: nullableNumber,
        lastReceivedAt: z.string().nullable(),
      }),
    ),
    series: z.array(z.strictObject({ t: z.string(), ...counts })),
    verificationFailures: z.array(z.strictObject({ reason: z.string(), count: z.number() })),
    rejections: z.array(z.strictObject({ reason: z.string(), count: z.number() })).meta({
      description: 'Refused deliveries (nothing stored) by reason, most first: endpoint_inactive, rate_limited.',
    }),
    replays: z.strictObject({
      total: z.number(),
      succeeded: z.number(),
      failed: z.number(),
      byTrigger: z.strictObject({ manual: z.number(), forward: z.number(), client: z.number() }).meta({
        description:
          'Attempts by trigger: manual (the engine replayed), forward (forwardUrl), client (sent by the desktop app from its own machine).',
      }),
      p50Ms: nullableNumber,
      p95Ms: nullableNumber,
    }),
    payloadSizes: z.strictObject({
      count: z.number(),
      min: nullableNumber,
      max: nullableNumber,
      avg: nullableNumber,
      p50: nullableNumber,
      p95: nullableNumber,
    }),
  })
  .meta({ id: 'MetricsReport' });

export type MetricsReport = z.infer<typeof MetricsReportSchema>;
/** received = success + failed + rejected, always. */
export type DeliveryCounts = MetricsReport['totals'];
export type EndpointMetrics = MetricsReport['endpoints'][number];
export type SeriesPoint = MetricsReport['series'][number];
