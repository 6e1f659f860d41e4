import { z } from 'zod';

/**
 * The two envelopes every JSON answer of the API uses, as schemas: the OpenAPI
 * document describes them from here and envelope.ts writes the types inferred
 * from them, so the document and the writer cannot disagree.
 */
export const ErrorEnvelopeSchema = z
  .strictObject({
    success: z.literal(false),
    error: z.strictObject({
      code: z.string().meta({ description: 'Stable, for programs (e.g. VALIDATION_ERROR, LOG_NOT_FOUND).' }),
      message: z.string().meta({ description: 'A sentence for people; a 400 names the field.' }),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

/** `{ success: true, data }` around an operation's data schema. */
export const successEnvelope = <S extends z.ZodType>(data: S) => z.strictObject({ success: z.literal(true), data });

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
export type SuccessEnvelope<T> = { success: true; data: T };
