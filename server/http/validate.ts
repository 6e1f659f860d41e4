import type { z } from 'zod';
import { ValidationError } from '../errors/app-errors.ts';

export type RequestPart = 'body' | 'query' | 'path';

/**
 * Parses one part of a request with its schema. A failure becomes a 400 whose
 * message names the first offending field and why; every issue is in details.
 */
export function parseRequestPart<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({
    field: i.path.length ? i.path.map(String).join('.') : part,
    message: i.message,
  }));
  const first = issues[0]!;
  const where = part === 'body' ? 'request body' : part === 'query' ? 'query parameter' : 'path parameter';
  const message =
    first.field === part ? `Invalid ${where}: ${first.message}` : `Invalid ${where} "${first.field}": ${first.message}`;
  throw new ValidationError(message, { part, issues });
}
