import { jsonShape, markBidiControls } from '../../../server/api-client/shared.ts';

/** The ways a body can be shown; the detail pane offers the ones that apply. */
export type BodyViewKind = 'json' | 'form' | 'xml' | 'text' | 'raw' | 'hex';

/**
 * The deepest JSON the tree (and the pretty view) shows. The tree renders a few
 * nested elements per level, recursively, and pretty-printing indents each line
 * by its level; a sender can nest `[[[...]]]` thousands deep in a few KB. No
 * real webhook payload comes near 100 levels.
 */
export const MAX_TREE_DEPTH = 100;

export interface BodyViews {
  available: BodyViewKind[];
  /** What opens first: the most readable view that applies. */
  initial: BodyViewKind;
  /** Set when the body is JSON nested deeper than MAX_TREE_DEPTH: no tree or pretty view, the raw text instead. */
  tooDeep?: true;
}

const essence = (contentType: string | null): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

export function isJsonType(contentType: string | null): boolean {
  const t = essence(contentType);
  return t === 'application/json' || t.endsWith('+json') || t === 'text/json';
}

function parsesAsJson(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || !'{["'.includes(trimmed[0]!)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/**
 * The views a stored body supports, from its content type and its bytes: JSON
 * when it parses (whatever the header claims: senders mislabel), a table for form
 * posts, XML for XML types; text and raw for anything that is text; hex always.
 * A body stored as base64 (not valid UTF-8) is binary: raw and hex only. JSON
 * nested deeper than MAX_TREE_DEPTH gets neither the tree nor the pretty view.
 */
export function bodyViewsFor(contentType: string | null, body: string, encoding: 'utf8' | 'base64'): BodyViews {
  if (encoding === 'base64') return { available: ['hex', 'raw'], initial: 'hex' };
  const t = essence(contentType);
  const available: BodyViewKind[] = [];
  const json = parsesAsJson(body);
  // A scan, not a walk: it never recurses, and stops one level past the limit.
  const tooDeep = json && jsonShape(body, MAX_TREE_DEPTH).depth > MAX_TREE_DEPTH;
  if (json && !tooDeep) available.push('json');
  if (t === 'application/x-www-form-urlencoded') available.push('form');
  if (t.endsWith('/xml') || t.endsWith('+xml')) available.push('xml');
  if (!tooDeep) available.push('text');
  available.push('raw', 'hex');
  return tooDeep ? { available, initial: available[0]!, tooDeep } : { available, initial: available[0]! };
}

/**
 * A JSON body as the tree shows it: keys and strings with each bidi control as a
 * visible marker (the tree renders text only; markBidiControls is the engine's, from server/api-client/shared.ts).
 * Only for bodies within MAX_TREE_DEPTH, so the walk's recursion stays shallow.
 */
export function treeData(body: string): object {
  return markJson(JSON.parse(body)) as object;
}

function markJson(value: unknown): unknown {
  if (typeof value === 'string') return markBidiControls(value);
  if (Array.isArray(value)) return value.map(markJson);
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties: a member named __proto__ stays data.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [markBidiControls(k), markJson(v)]));
  }
  return value;
}

/** The bytes of a stored body (UTF-8 text or base64). */
export function bodyBytes(body: string, encoding: 'utf8' | 'base64'): Uint8Array<ArrayBuffer> {
  if (encoding === 'utf8') return new TextEncoder().encode(body);
  const bin = atob(body);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** `hexdump -C`-style lines: offset, 16 bytes in hex, and their printable ASCII. */
export function hexLines(bytes: Uint8Array, maxBytes = 64 * 1024): string[] {
  const lines: string[] = [];
  const end = Math.min(bytes.length, maxBytes);
  for (let off = 0; off < end; off += 16) {
    const row = bytes.subarray(off, Math.min(off + 16, end));
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${off.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines;
}

/** Form fields in order, repeats kept. */
export function formFields(body: string): [string, string][] {
  return [...new URLSearchParams(body).entries()];
}
