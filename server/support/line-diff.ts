import { createTwoFilesPatch, diffLines } from 'diff';

/** One run of lines, as the `diff` package reports it: added, removed or common to both. */
export interface LineChange {
  value: string;
  added: boolean;
  removed: boolean;
  count: number;
}

export interface LineDiff {
  /** Unified diff with 3 lines of context, files named `a/<name>` and `b/<name>`. */
  patch: string;
  changes: LineChange[];
}

/**
 * A line diff of two texts (replay responses, compared deliveries). With
 * `maxEditLength` (lines added plus removed) the work is bounded: null when the
 * texts differ by more, since Myers' diff grows with the number of edits.
 */
export function lineDiff(
  left: string,
  right: string,
  names: { a: string; b: string },
  opts: { maxEditLength?: number } = {},
): LineDiff | null {
  const max = opts.maxEditLength;
  const parts = max === undefined ? diffLines(left, right) : diffLines(left, right, { maxEditLength: max });
  if (!parts) return null;
  const [fileA, fileB] = [`a/${names.a}`, `b/${names.b}`];
  const patch =
    max === undefined
      ? createTwoFilesPatch(fileA, fileB, left, right, undefined, undefined, { context: 3 })
      : createTwoFilesPatch(fileA, fileB, left, right, undefined, undefined, { context: 3, maxEditLength: max });
  if (patch === undefined) return null;
  const changes = parts.map((c) => ({ value: c.value, added: c.added, removed: c.removed, count: c.count }));
  return { patch, changes };
}

/** JSON.parse that says whether it parsed; blank text is not JSON. */
export function parseJson(
  text: string,
  reviver?: (key: string, value: unknown) => unknown,
): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text, reviver) as unknown };
  } catch {
    return { ok: false };
  }
}
