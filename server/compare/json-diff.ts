import microdiff from 'microdiff';
import { parseJson } from '../support/line-diff.ts';
import type { JsonChange } from './compare-schemas.ts';

const VALUE_CHARS = 1000;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Parses JSON into objects without a prototype, so a member named `constructor`
 * or `__proto__` is compared as data, never matched against what every object inherits.
 */
export function parseJsonData(text: string): { ok: true; value: unknown } | { ok: false } {
  return parseJson(text, (_key, value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.assign(Object.create(null) as object, value)
      : value,
  );
}

/** `$.data.object.amount`, `$.items[0]`, `$["a b"]`. */
export function jsonPath(segments: readonly (string | number)[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += IDENTIFIER.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** Compact JSON text of a value for display, cut past VALUE_CHARS. */
function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text;
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

/**
 * Structural changes from a to b, by microdiff: members added, removed or changed,
 * arrays compared by index (an element inserted at the front shows as every later
 * index changed, plus one added at the end). An added or removed member is one
 * change with its whole value; a member that changes type (object to array, to a
 * scalar) is one change too. Stops listing at `max` and says so.
 */
export function diffJson(a: unknown, b: unknown, max: number): { changes: JsonChange[]; complete: boolean } {
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) {
    const same = JSON.stringify(a) === JSON.stringify(b);
    return { changes: same ? [] : [{ path: '$', kind: 'changed', a: shown(a), b: shown(b) }], complete: true };
  }
  // No cycles in parsed JSON: the cycle check would only cost time.
  const found = microdiff(a, b, { cyclesFix: false });
  const changes = found.slice(0, max).map((d): JsonChange => {
    const path = jsonPath(d.path);
    if (d.type === 'CREATE') return { path, kind: 'added', a: null, b: shown(d.value) };
    if (d.type === 'REMOVE') return { path, kind: 'removed', a: shown(d.oldValue), b: null };
    return { path, kind: 'changed', a: shown(d.oldValue), b: shown(d.value) };
  });
  return { changes, complete: found.length <= max };
}
