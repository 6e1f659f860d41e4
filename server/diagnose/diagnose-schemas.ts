import { z } from 'zod';
import { httpUrl } from '../http/schemas.ts';
import { LogSummarySchema } from '../logs/logs-schemas.ts';
import { HistoryEntrySchema } from '../replay/replay-schemas.ts';

export const DiagnoseQuery = z.object({ target: httpUrl('target').optional() });

const Step = { ok: z.boolean(), ms: z.number().nullable(), error: z.string().nullable() };

export const DiagnosisSchema = z
  .object({
    log: LogSummarySchema,
    reconstruction: z.object({ url: z.string(), curl: z.string(), http: z.string() }),
    verification: z.object({
      stored: LogSummarySchema.shape.verification,
      now: LogSummarySchema.shape.verification.extend({ checkedAt: z.string() }).nullable(),
    }),
    destination: z
      .object({
        url: z.string(),
        source: z.enum(['query', 'forward', 'lastReplay']),
        dns: z.object({ ...Step, addresses: z.array(z.string()) }),
        connect: z.object(Step),
        http: z.object({ ...Step, status: z.number().nullable(), method: z.enum(['HEAD', 'GET']).nullable() }),
      })
      .nullable(),
    recentReplays: z.array(HistoryEntrySchema),
  })
  .meta({ id: 'Diagnosis' });
