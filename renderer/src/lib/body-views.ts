import { jsonShape } from '../../../server/api-client/shared.ts';
import { prettyXml, type PrettyXml } from './body-views-xml.ts';

/** The ways a body can be shown; the detail pane offers the ones that apply. */
export type BodyViewKind = 'json' | 'form' | 'text' | 'raw' | 'hex';

/**
 * The deepest JSON the tree (and the pretty view) shows. A sender can nest
 * `[[[...]]]` thousands deep in a few KB, and pretty-printing indents each line by
 * its level; no real webhook payload comes near 100 levels.
 */
export const MAX_TREE_DEPTH = 100;

/**
 * Bodies longer than this (in characters) open in the raw view, and text longer
 * than this is drawn as virtualised rows rather than one <pre>.
 *
 * Measured in Debian's Chromium on this machine (2 shared cores), laying out a
 * <pre> (pre-wrap, 560 px wide) of JSON: 270 K characters minified 31 ms, 460 K
 * pretty-printed 157 ms, 1.8 M pretty 738 ms, 3.5 M pretty 1,863 ms. A 256 KiB text
 * stays near 100 ms, well inside the 1 s budget on a machine a few times slower;
 * beyond it the rows are virtualised (only those on screen are in the page).
 * The tree is virtualised at any size, but it costs a JSON.parse to open and a walk
 * of every node per search. Measured the same way on a 9.5 MB JSON body (91,000
 * items), the longest task: Raw shown 80-140 ms, found in 0 ms (no task over 50 ms),
 * the tree opened on a match 224-242 ms, 91,000 items unfolded under 100 ms,
 * Pretty 219-267 ms, Hex 0 ms. A reader of a multi-megabyte body is usually looking
 * for one thing, which Raw with "Find in body" finds at once.
 */
export const LARGE_BODY_CHARS = 256 * 1024;

/** The most form fields the Form table lists (the rest are in Raw): a table row per field is not virtualised. */
export const MAX_FORM_FIELDS = 1000;

export interface BodyViews {
  available: BodyViewKind[];
  /** What opens first: the most readable view that applies, or Raw for a large body. */
  initial: BodyViewKind;
  /** Set when the body is JSON nested deeper than MAX_TREE_DEPTH: no tree or pretty view, the raw text instead. */
  tooDeep?: true;
  /** Set when the body is longer than LARGE_BODY_CHARS. */
  large?: true;
}

const essence = (contentType: string | null): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

export function isJsonType(contentType: string | null): boolean {
  const t = essence(contentType);
  return t === 'application/json' || t.endsWith('+json') || t === 'text/json';
}

/** XML by its content type, or by its declaration (senders mislabel XML as text/plain). */
export function isXml(contentType: string | null, body: string): boolean {
  const t = essence(contentType);
  return t.endsWith('/xml') || t.endsWith('+xml') || body.trimStart().startsWith('<?xml');
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
 * posts; Pretty (indented JSON or XML) and raw for anything that is text; hex
 * always. A body stored as base64 (not valid UTF-8) is binary: raw and hex only.
 * JSON nested deeper than MAX_TREE_DEPTH gets neither the tree nor the pretty view.
 */
export function bodyViewsFor(contentType: string | null, body: string, encoding: 'utf8' | 'base64'): BodyViews {
  const large = body.length > LARGE_BODY_CHARS;
  if (encoding === 'base64') return { available: ['hex', 'raw'], initial: 'hex', ...(large && { large }) };
  const available: BodyViewKind[] = [];
  const json = parsesAsJson(body);
  // A scan, not a walk: it never recurses, and stops one level past the limit.
  const tooDeep = json && jsonShape(body, MAX_TREE_DEPTH).depth > MAX_TREE_DEPTH;
  if (json && !tooDeep) available.push('json');
  if (essence(contentType) === 'application/x-www-form-urlencoded') available.push('form');
  if (!tooDeep) available.push('text');
  available.push('raw', 'hex');
  return {
    available,
    initial: large ? 'raw' : available[0]!,
    ...(tooDeep && { tooDeep }),
    ...(large && { large }),
  };
}

export type PrettyText = { text: string; note?: string };

/**
 * What Pretty shows: JSON indented by two spaces, XML indented by element (or as
 * received, with the reason, when it is not well-formed), any other text as it is.
 * Only for bodies within MAX_TREE_DEPTH (bodyViewsFor offers no Pretty beyond).
 */
export function prettyText(contentType: string | null, body: string): PrettyText {
  if (parsesAsJson(body)) return { text: JSON.stringify(JSON.parse(body), null, 2) };
  if (!isXml(contentType, body)) return { text: body };
  const xml: PrettyXml = prettyXml(body, MAX_TREE_DEPTH);
  return xml.ok ? { text: xml.text } : { text: body, note: `Not indented: ${xml.reason}. Here it is as received.` };
}

/** The bytes of a stored body (UTF-8 text or base64). */
export function bodyBytes(body: string, encoding: 'utf8' | 'base64'): Uint8Array<ArrayBuffer> {
  if (encoding === 'utf8') return new TextEncoder().encode(body);
  const bin = atob(body);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** Bytes shown per hex row. */
export const HEX_ROW_BYTES = 16;

export interface HexRow {
  /** The offset of the row's first byte, 8 hex digits. */
  offset: string;
  /** The row's bytes in hex, padded to a full row so the ASCII column lines up. */
  hex: string;
  /** The printable ASCII of the bytes, `.` for the others. */
  ascii: string;
}

/** Row `row` of a `hexdump -C`-style listing: offset, 16 bytes in hex, and their printable ASCII. */
export function hexRow(bytes: Uint8Array, row: number): HexRow {
  const off = row * HEX_ROW_BYTES;
  const part = bytes.subarray(off, Math.min(off + HEX_ROW_BYTES, bytes.length));
  return {
    offset: off.toString(16).padStart(8, '0'),
    hex: Array.from(part, (b) => b.toString(16).padStart(2, '0'))
      .join(' ')
      .padEnd(HEX_ROW_BYTES * 3 - 1),
    ascii: Array.from(part, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join(''),
  };
}

/** Form fields in order, repeats kept. */
export function formFields(body: string): [string, string][] {
  return [...new URLSearchParams(body).entries()];
}
