import { z } from 'zod';
import { booleanLike } from '../http/schemas.ts';
import { CAUSE_CODES } from './cause-codes.ts';

export const AnalyzeParams = z.object({ logId: z.string().min(1).max(100) });

export const AnalyzeQuery = z.object({ refresh: booleanLike('refresh').optional() });

export const AnalyzeBody = z.object({ refresh: booleanLike('refresh').optional() });

export const ExplainQuery = z.object({
  format: z.enum(['json', 'text'], { error: 'format must be json or text.' }).optional(),
  refresh: booleanLike('refresh').optional(),
});

// ---- Response shapes: the wire types below are inferred from them (one source).

/** A fact shown to the user: a sentence, or a labelled value (a header, a number of seconds...). */
const EvidenceSchema = z.union([z.string(), z.strictObject({ label: z.string(), value: z.string() })]);

const SnippetsSchema = z.strictObject({ node: z.string(), python: z.string() });

/** What a rule proves (or, at lower confidence, suspects). */
export const CauseSchema = z
  .strictObject({
    code: z.enum(CAUSE_CODES),
    title: z.string(),
    confidence: z.number().min(0).max(1).meta({
      description: '~0.95 when recomputed signatures prove it, lower when it is the best remaining explanation.',
    }),
    evidence: z.array(EvidenceSchema),
    steps: z.array(z.string()),
    snippets: SnippetsSchema,
  })
  .meta({ id: 'RemediationCause' });

export const AnalysisSchema = z
  .strictObject({
    logId: z.string(),
    summary: z.string(),
    causes: z.array(CauseSchema),
    engine: z.enum(['rules', 'rules+llm']),
    explanation: z.string().optional().meta({ description: "The LLM's prose, when one is configured and answered." }),
    llmError: z
      .string()
      .optional()
      .meta({ description: "Why the configured LLM added nothing (the rules' analysis stands)." }),
    createdAt: z.string(),
    cached: z.boolean(),
  })
  .meta({ id: 'RemediationAnalysis' });

export type Evidence = z.infer<typeof EvidenceSchema>;
export type Snippets = z.infer<typeof SnippetsSchema>;
export type Cause = z.infer<typeof CauseSchema>;
export type Analysis = z.infer<typeof AnalysisSchema>;
