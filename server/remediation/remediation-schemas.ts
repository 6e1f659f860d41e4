import { z } from 'zod';
import { booleanLike } from '../http/schemas.ts';

export const AnalyzeParams = z.object({ logId: z.string().min(1).max(100) });

export const AnalyzeQuery = z.object({ refresh: booleanLike('refresh').optional() });

export const AnalyzeBody = z.object({ refresh: booleanLike('refresh').optional() });

export const ExplainQuery = z.object({
  format: z.enum(['json', 'text'], { error: 'format must be json or text.' }).optional(),
  refresh: booleanLike('refresh').optional(),
});

const Evidence = z.union([z.string(), z.object({ label: z.string(), value: z.string() })]);

export const CauseSchema = z
  .object({
    code: z.string().meta({
      description:
        'previous_secret, wrong_secret, encoding_mismatch, body_modified, timestamp_skew, wrong_provider, wrong_header_name, payload_too_large, receiver_refused, target_unreachable, target_timeout, target_rejected_signature, target_error, unsafe_sub_path',
    }),
    title: z.string(),
    confidence: z.number().min(0).max(1),
    evidence: z.array(Evidence),
    steps: z.array(z.string()),
    snippets: z.object({ node: z.string(), python: z.string() }),
  })
  .meta({ id: 'RemediationCause' });

export const AnalysisSchema = z
  .object({
    logId: z.string(),
    summary: z.string(),
    causes: z.array(CauseSchema),
    engine: z.enum(['rules', 'rules+llm']),
    explanation: z.string().optional(),
    llmError: z.string().optional(),
    createdAt: z.string(),
    cached: z.boolean(),
  })
  .meta({ id: 'RemediationAnalysis' });
