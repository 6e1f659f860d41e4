import type { LikeTerm } from '../../logs/like-text.ts';

/*
 * The exact check of a search term (like-text.ts) written in SQL, for ASCII terms: the
 * text up to its first NUL, with A-Z folded, contains the term (or ends with it). Run in
 * the database, a search sends no bodies to the engine: at 100,000 logs a term in 12,500
 * bodies read 25 MB of hex and took 182 ms at p95 with the check in JS, and the engine's
 * memory grew by those bodies (issue 23, docs/PERFORMANCE.md).
 *
 * Why it is exact for an ASCII term: no ASCII byte is ever part of another character, so
 * the bytes themselves (read as LATIN1, where each byte is one character and every byte
 * converts) hold the term exactly where LIKE's reading did; lower() under the C collation
 * folds A-Z only, as LIKE did. Non-ASCII terms are checked in JS (log-search.ts).
 */

/** The LIKE pattern matching a text whose view (like-text.ts) contains the term's, or ends with it. */
export function viewPattern(term: LikeTerm): string {
  const escaped = term.view.toString('utf8').replace(/[\\%_]/g, (c) => `\\${c}`);
  return term.atEnd ? `%${escaped}` : `%${escaped}%`;
}

const NUL = "'\\x00'::bytea";

/** `bytes` (a bytea expression) up to its first NUL, read as LATIN1 and folded: the term's view compares to it. */
function folded(bytes: string): string {
  const upToNul = `CASE WHEN position(${NUL} IN ${bytes}) = 0 THEN ${bytes} ELSE substring(${bytes} FROM 1 FOR position(${NUL} IN ${bytes}) - 1) END`;
  return `lower(convert_from(${upToNul}, 'LATIN1') COLLATE "C")`;
}

/** Adds a parameter to a statement and answers its placeholder. */
export type Bind = (value: unknown) => string;

/**
 * Whether the bytea expression `bytes` matches the ASCII term. A text without NUL that
 * holds the folded term as it is matches without being folded: the usual case (the term
 * written in lower case, as it is in the body) costs a byte search (10 ms instead of 39
 * ms for 12,500 1 KB bodies, measured on the benchmark's store).
 */
export function matchSql(term: LikeTerm, bytes: string, bind: Bind): string {
  if (term.atEnd) return `${folded(bytes)} LIKE ${bind(viewPattern(term))}`;
  const raw = `position(${bind(term.view)}::bytea IN ${bytes}) > 0`;
  return `((position(${NUL} IN ${bytes}) = 0 AND ${raw}) OR position(${bind(term.view.toString('latin1'))}::text IN ${folded(bytes)}) > 0)`;
}
