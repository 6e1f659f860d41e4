import { z } from 'zod';
import { isAbsoluteHttpUrl } from '../support/absolute-url.ts';

/** Reusable request-schema pieces, so every route words its errors the same way. */

/**
 * PostgreSQL's text cannot hold U+0000, which the embedded store would keep: a name
 * or description holding it is refused on both backends, so a record never stores
 * on one and fails on the other.
 */
const noNul = (field: string) =>
  [(s: string) => !s.includes('\u0000'), { error: `${field} must not contain the NUL character (U+0000).` }] as const;

export const requiredString = (field: string, max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .trim()
    .min(1, { error: `${field} must not be empty.` })
    .max(max, { error: `${field} must be at most ${max} characters.` })
    .refine(...noNul(field));

export const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string or null.` })
    .max(max, { error: `${field} must be at most ${max} characters.` })
    .refine(...noNul(field))
    .nullable()
    .optional();

export const httpUrl = (field: string) =>
  z
    .string({ error: `${field} must be a string.` })
    .max(2048, { error: `${field} must be at most 2048 characters.` })
    .refine(isAbsoluteHttpUrl, { error: `${field} must be an absolute http:// or https:// URL.` });

/** Accepts true/false, "true"/"false" and 1/0: forms a hand-written request or a form might send. */
export const booleanLike = (field: string) =>
  z
    .union([z.boolean(), z.literal('true'), z.literal('false'), z.literal(1), z.literal(0)], {
      error: `${field} must be true or false.`,
    })
    .transform((v) => v === true || v === 'true' || v === 1);

export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Query integers arrive as strings; reject anything that is not a plain whole number. Absent: undefined. */
export const optionalQueryInt = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be a single whole number.` })
    .regex(/^\d+$/, { error: `${field} must be a whole number between ${min} and ${max}.` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `${field} must be between ${min} and ${max}.` })
    .optional();

/** A query integer, `fallback` when absent. */
export const queryInt = (field: string, min: number, max: number, fallback: number) =>
  optionalQueryInt(field, min, max).transform((n) => n ?? fallback);

export const idParam = (name: string, prefix: string) =>
  z.object({
    [name]: z
      .string()
      .min(1)
      .max(100)
      .meta({ description: `The ${prefix}_ identifier.` }),
  });
