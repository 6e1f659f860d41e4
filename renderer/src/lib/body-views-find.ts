/**
 * "Find in body": where a query occurs in a text, case-insensitively, as the
 * browser's own find does. Matches are kept as offsets into the text shown, so the
 * views can mark them without copying the text.
 */

/**
 * The most matches counted: a one-letter query in a 10 MB body would otherwise
 * make millions of offsets. The count then reads "1 of 10,000+".
 */
export const MAX_MATCHES = 10_000;

export interface TextMatches {
  /** Start offsets, ascending. */
  starts: number[];
  /** End offsets (exclusive), one per start. */
  ends: number[];
  /** More matches than MAX_MATCHES exist; only the first are kept. */
  capped: boolean;
}

export const NO_MATCHES: TextMatches = { starts: [], ends: [], capped: false };

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The query as a case-insensitive pattern. A regular expression rather than
 * lower-casing both sides: lower-casing can change a text's length (`İ` becomes two
 * code units), which would shift every offset after it.
 */
export const findPattern = (query: string): RegExp => new RegExp(escapeRegExp(query), 'giu');

/** Every match of `query` in `text`, up to `limit` (ends are where the next search resumes: no overlaps). */
export function findInText(text: string, query: string, limit = MAX_MATCHES): TextMatches {
  if (query === '') return NO_MATCHES;
  const pattern = findPattern(query);
  const starts: number[] = [];
  const ends: number[] = [];
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (starts.length === limit) return { starts, ends, capped: true };
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  return { starts, ends, capped: false };
}

/** The index of the first match ending after `offset` (binary search): the first one a row starting there can show. */
export function firstMatchFrom(matches: TextMatches, offset: number): number {
  let lo = 0;
  let hi = matches.ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (matches.ends[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What the find box says: "3 of 12", "1 of 10,000+", "No matches", or nothing before a query. */
export function matchCountText(query: string, current: number, total: number, capped: boolean): string {
  if (query === '') return '';
  if (total === 0) return 'No matches';
  const n = (x: number): string => x.toLocaleString('en-US');
  return `${n(current + 1)} of ${n(total)}${capped ? '+' : ''}`;
}

/** The next match (or previous, with `by` -1), wrapping round at either end. */
export function stepMatch(current: number, total: number, by: 1 | -1): number {
  return total === 0 ? 0 : (current + by + total) % total;
}

/** One piece of a text as marked for find: plain, a match, or the current match. */
export interface MarkedPiece {
  text: string;
  mark: 'none' | 'match' | 'current';
}

/**
 * The pieces of `text[from, to)` with the matches that overlap it marked. `current`
 * is the index (in `matches`) of the current match.
 */
export function markedPieces(
  text: string,
  from: number,
  to: number,
  matches: TextMatches,
  current: number,
): MarkedPiece[] {
  const pieces: MarkedPiece[] = [];
  let at = from;
  for (let i = firstMatchFrom(matches, from); i < matches.starts.length && matches.starts[i]! < to; i++) {
    const s = Math.max(matches.starts[i]!, from);
    const e = Math.min(matches.ends[i]!, to);
    if (s > at) pieces.push({ text: text.slice(at, s), mark: 'none' });
    pieces.push({ text: text.slice(s, e), mark: i === current ? 'current' : 'match' });
    at = e;
  }
  if (at < to) pieces.push({ text: text.slice(at, to), mark: 'none' });
  return pieces;
}
