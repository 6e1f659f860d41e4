import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { jsonShape } from '../support/json-shape.ts';
import { lineDiff } from '../support/line-diff.ts';
import type { BodyComparison } from './compare-schemas.ts';
import { diffJson, parseJsonData } from './json-diff.ts';

/**
 * Bounds that keep a comparison from stalling the engine's event loop (the
 * receiver shares it): parsing is cheap up to a few MiB, Myers' line diff grows
 * with the lines times the edits, so text gets the tighter bounds. The structural
 * walk recurses once per level (and so does JSON.parse with a reviver), while a
 * sender may nest `[[[...]]]` 100,000 deep: deeper than maxJsonDepth is compared
 * as text, decided by a scan before any recursion starts.
 */
export const BODY_DIFF_LIMITS = {
  maxJsonBytes: 1024 * 1024,
  maxJsonDepth: 256,
  maxJsonChanges: 500,
  maxTextBytes: 256 * 1024,
  maxEditLines: 1000,
} as const;

interface Body {
  id: string;
  bytes: Buffer;
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

const shallow = (text: string): boolean =>
  jsonShape(text, BODY_DIFF_LIMITS.maxJsonDepth).depth <= BODY_DIFF_LIMITS.maxJsonDepth;

/** b's stored body compared with a's: JSON-aware when both parse, else by line, and binary by size and hash. */
export function diffBodies(a: Body, b: Body): BodyComparison {
  const changed = !a.bytes.equals(b.bytes);
  const base = {
    changed,
    sizes: { a: a.bytes.length, b: b.bytes.length },
    sha256: { a: sha256(a.bytes), b: sha256(b.bytes) },
    json: [],
    patch: '',
    changes: [],
    limited: null,
  };
  if (!isUtf8(a.bytes) || !isUtf8(b.bytes)) return { ...base, format: 'binary' };
  const L = BODY_DIFF_LIMITS;
  const larger = Math.max(a.bytes.length, b.bytes.length);
  const left = a.bytes.toString('utf8');
  const right = b.bytes.toString('utf8');

  if (larger <= L.maxJsonBytes && shallow(left) && shallow(right)) {
    const ja = parseJsonData(left);
    const jb = parseJsonData(right);
    if (ja.ok && jb.ok) {
      if (!changed) return { ...base, format: 'json' };
      const { changes, complete } = diffJson(ja.value, jb.value, L.maxJsonChanges);
      return { ...base, format: 'json', json: changes, limited: complete ? null : 'too_many_changes' };
    }
  }
  if (!changed) return { ...base, format: 'text' };
  if (larger > L.maxTextBytes) return { ...base, format: 'text', limited: 'too_large' };
  const lines = lineDiff(left, right, { a: a.id, b: b.id }, { maxEditLength: L.maxEditLines });
  if (!lines) return { ...base, format: 'text', limited: 'too_many_changes' };
  return { ...base, format: 'text', patch: lines.patch, changes: lines.changes };
}
