import type { NamedValuesDiff } from './compare-schemas.ts';

type Pairs = readonly (readonly [string, string])[];

interface Group {
  /** The name as first received, for display. */
  name: string;
  values: string[];
}

/** Values by name in order of first appearance; with ignoreCase, names that differ only in case are one. */
function group(pairs: Pairs, ignoreCase: boolean): Map<string, Group> {
  const out = new Map<string, Group>();
  for (const [name, value] of pairs) {
    const key = ignoreCase ? name.toLowerCase() : name;
    const g = out.get(key);
    if (g) g.values.push(value);
    else out.set(key, { name, values: [value] });
  }
  return out;
}

const sameValues = (a: string[], b: string[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Headers or query parameters of b compared with a: added and changed in b's
 * order, removed in a's. A name's values compare as a list, in order (a header
 * sent twice is two values, never joined: Set-Cookie values contain commas).
 */
export function diffNamedValues(a: Pairs, b: Pairs, opts: { ignoreCase: boolean }): NamedValuesDiff {
  const ga = group(a, opts.ignoreCase);
  const gb = group(b, opts.ignoreCase);
  const out: NamedValuesDiff = { added: [], removed: [], changed: [] };
  for (const [key, after] of gb) {
    const before = ga.get(key);
    if (!before) out.added.push({ name: after.name, values: after.values });
    else if (!sameValues(before.values, after.values))
      out.changed.push({ name: after.name, a: before.values, b: after.values });
  }
  for (const [key, before] of ga) if (!gb.has(key)) out.removed.push({ name: before.name, values: before.values });
  return out;
}

export const isEmptyDiff = (d: NamedValuesDiff): boolean => d.added.length + d.removed.length + d.changed.length === 0;
