import { z } from 'zod';
import { LOG_STATUSES } from '../logs/log-status.ts';

const logId = (field: 'a' | 'b') =>
  z
    .string({
      error: (i) => (i.input === undefined ? `${field} is required (a log id).` : `${field} must be given once.`),
    })
    .min(1, { error: `${field} must not be empty.` })
    .max(100, { error: `${field} must be at most 100 characters.` })
    .meta({ description: `The ${field === 'a' ? 'first (before)' : 'second (after)'} log's id.` });

export const CompareQuery = z.object({ a: logId('a'), b: logId('b') });

// ---- Response shapes: the wire types below are inferred from them (one source).

const Side = z.strictObject({
  id: z.string(),
  endpointId: z.string(),
  method: z.string(),
  path: z.string(),
  receivedAt: z.string(),
  status: z.enum(LOG_STATUSES),
  contentType: z.string().nullable(),
  size: z.number(),
  truncated: z.boolean().meta({ description: 'Only the first bytes were stored: the body diff covers those.' }),
});

const Values = z.array(z.string());
const NamedValuesDiff = z.strictObject({
  added: z.array(z.strictObject({ name: z.string(), values: Values })),
  removed: z.array(z.strictObject({ name: z.string(), values: Values })),
  changed: z.array(z.strictObject({ name: z.string(), a: Values, b: Values })),
});

const Compared = <T extends z.ZodType>(t: T) => z.strictObject({ a: t, b: t, changed: z.boolean() });

export const JSON_CHANGE_KINDS = ['added', 'removed', 'changed'] as const;

const JsonChange = z.strictObject({
  path: z.string().meta({ description: 'JSONPath of the member, e.g. $.data.object.amount or $.items[0]["a b"].' }),
  kind: z.enum(JSON_CHANGE_KINDS),
  a: z
    .string()
    .nullable()
    .meta({ description: 'The value in a as compact JSON text (cut with … past 1000 characters); null when added.' }),
  b: z.string().nullable().meta({ description: 'The value in b, the same way; null when removed.' }),
});

const LineChange = z.strictObject({ value: z.string(), added: z.boolean(), removed: z.boolean(), count: z.number() });

export const BODY_FORMATS = ['json', 'text', 'binary'] as const;
export const DIFF_LIMITS = ['too_large', 'too_many_changes'] as const;

export const ComparisonSchema = z
  .strictObject({
    a: Side,
    b: Side,
    identical: z.boolean().meta({ description: 'Same method, path, query, headers and body bytes.' }),
    request: z.strictObject({
      method: Compared(z.string()),
      path: Compared(z.string()),
      query: NamedValuesDiff.meta({ description: 'Query parameters (names case-sensitive), b compared with a.' }),
    }),
    headers: NamedValuesDiff.meta({
      description:
        'Headers b has and a has not (added), the reverse (removed), and those whose values differ (changed). Names match case-insensitively and are shown as received; a repeated header lists every value in order.',
    }),
    body: z.strictObject({
      changed: z.boolean().meta({ description: 'The stored bytes differ (JSON that differs only in spacing too).' }),
      format: z.enum(BODY_FORMATS).meta({
        description:
          'json: both parse as JSON and nest at most 256 levels deep, see `json`; text: valid UTF-8 (deeper JSON too), see `patch` and `changes`; binary: either is not UTF-8, compared by size and SHA-256 only.',
      }),
      sizes: z.strictObject({ a: z.number(), b: z.number() }).meta({ description: 'Stored bytes.' }),
      sha256: z
        .strictObject({ a: z.string(), b: z.string() })
        .meta({ description: 'Hex SHA-256 of the stored bytes.' }),
      json: z.array(JsonChange).meta({
        description:
          'Structural changes, b compared with a (arrays by index), at most 500; empty unless format is json.',
      }),
      patch: z.string().meta({ description: 'Unified line diff (format text only; empty otherwise).' }),
      changes: z.array(LineChange).meta({ description: 'The same line diff as runs of lines (format text only).' }),
      limited: z.enum(DIFF_LIMITS).nullable().meta({
        description:
          'Why the diff is partial or absent: too_large (a JSON body over 1 MiB or a text body over 256 KiB: sizes and hashes only), too_many_changes (JSON: the first 500 changes; text: more than 1000 changed lines, no line diff); null when complete.',
      }),
    }),
  })
  .meta({ id: 'LogComparison' });

export type LogComparisonView = z.infer<typeof ComparisonSchema>;
export type NamedValuesDiff = z.infer<typeof NamedValuesDiff>;
export type JsonChange = z.infer<typeof JsonChange>;
export type BodyComparison = LogComparisonView['body'];
