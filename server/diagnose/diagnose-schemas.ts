import { z } from 'zod';
import { httpUrl } from '../http/schemas.ts';
import { LogSummarySchema } from '../logs/logs-schemas.ts';
import { HistoryEntrySchema } from '../replay/replay-schemas.ts';

export const DiagnoseQuery = z.object({ target: httpUrl('target').optional() });

// ---- Response shape: the wire types below are inferred from it (one source).

const Step = {
  ok: z.boolean(),
  ms: z.number().nullable().meta({ description: 'Milliseconds the step took; null when it was skipped.' }),
  error: z.string().nullable(),
};

const DestinationSchema = z.strictObject({
  url: z.string(),
  source: z.enum(['query', 'forward', 'lastReplay']),
  dns: z.strictObject({ ...Step, addresses: z.array(z.string()) }),
  connect: z.strictObject(Step),
  http: z
    .strictObject({ ...Step, status: z.number().nullable(), method: z.enum(['HEAD', 'GET']).nullable() })
    .meta({ description: 'ok when the server answered HTTP at all; status says what it answered.' }),
});

export const DiagnosisSchema = z
  .strictObject({
    log: LogSummarySchema,
    reconstruction: z.strictObject({ url: z.string(), curl: z.string(), http: z.string() }),
    verification: z.strictObject({
      stored: LogSummarySchema.shape.verification,
      now: LogSummarySchema.shape.verification
        .extend({ checkedAt: z.string() })
        .nullable()
        .meta({ description: "Recomputed now with the endpoint's current secrets; null when the endpoint is gone." }),
    }),
    destination: DestinationSchema.nullable(),
    recentReplays: z.array(HistoryEntrySchema),
  })
  .meta({ id: 'Diagnosis' });

export type DiagnosisView = z.infer<typeof DiagnosisSchema>;
export type DestinationChecks = z.infer<typeof DestinationSchema>;
export type ProbeStep = DestinationChecks['connect'];
