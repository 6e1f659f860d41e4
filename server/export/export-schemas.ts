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

export const ExportSchema = z
  .object({
    format: z.enum(EXPORT_FORMATS),
    filename: z.string(),
    contentType: z.string(),
    contentEncoding: z.enum(['utf8', 'base64']),
    content: z.string(),
  })
  .meta({ id: 'Export' });
