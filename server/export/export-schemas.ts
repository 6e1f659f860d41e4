import { z } from 'zod';
import { booleanLike, httpUrl } from '../http/schemas.ts';
import { EXPORT_FORMATS } from './export-types.ts';

export const ExportQuery = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of: ${EXPORT_FORMATS.join(', ')}.` }),
  redact: booleanLike('redact')
    .optional()
    .transform((v) => v ?? false),
  target: httpUrl('target').optional(),
});

// ---- Response shape: the wire type below is inferred from it (one source).

export const ExportSchema = z
  .strictObject({
    format: z.enum(EXPORT_FORMATS),
    filename: z.string(),
    contentType: z.string(),
    contentEncoding: z.enum(['utf8', 'base64']).meta({
      description: "utf8: content is the file's text; base64: the file's bytes (an http export of a binary body).",
    }),
    content: z.string(),
  })
  .meta({ id: 'Export' });

export type ExportResult = z.infer<typeof ExportSchema>;
