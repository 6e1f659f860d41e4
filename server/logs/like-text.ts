import { Buffer, isAscii, isUtf8 } from 'node:buffer';

/**
 * Text as SQLite's `LIKE` sees it, so the search index and the exact check agree with
 * the `x LIKE '%term%' ESCAPE '\'` the search used to run: the text ends at its first
 * NUL byte (LIKE reads a C string), bytes are decoded the way sqlite3Utf8Read decodes
 * them (a lead byte takes every continuation byte after it; a stray continuation byte
 * is a character of its own; overlong, surrogate and U+FFFE/U+FFFF results read as
 * U+FFFD), and only ASCII letters are folded. The result is that reading re-encoded as
 * well-formed UTF-8, lower-cased, so a byte substring of it is a character substring
 * for LIKE. Code points no UTF-8 string can hold (past U+10FFFF) become the byte 0xFF,
 * which no term contains. For valid UTF-8 without U+FFFE/U+FFFF (nearly every body)
 * that is the bytes themselves with A-Z folded.
 */
export function likeView(bytes: Uint8Array): Buffer {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nul = all.indexOf(0);
  const b = nul < 0 ? all : all.subarray(0, nul);
  return isUtf8(b) ? foldAscii(b) : sqliteReading(b);
}

/** The view of a string as SQLite stores it (UTF-8; a lone surrogate becomes U+FFFD, as `Buffer.from` does). */
export function likeViewOfString(s: string): Buffer {
  return likeView(Buffer.from(s, 'utf8'));
}

const FOLD = Uint8Array.from({ length: 256 }, (_, i) => (i >= 0x41 && i <= 0x5a ? i + 0x20 : i));

function foldAscii(b: Buffer): Buffer {
  const out = Buffer.allocUnsafe(b.length);
  for (let i = 0; i < b.length; i++) out[i] = FOLD[b[i]!]!;
  return out;
}

const REPLACEMENT = 0xfffd;

/** sqlite3Utf8Read over the whole text, each code point re-encoded (slow path: invalid UTF-8). */
function sqliteReading(b: Buffer): Buffer {
  const out: number[] = [];
  let i = 0;
  while (i < b.length) {
    let c = b[i++]!;
    if (c >= 0xc0) {
      // sqlite3Utf8Trans1: the lead byte's payload bits.
      c =
        c < 0xe0 ? c & 0x1f : c < 0xf0 ? c & 0x0f : c < 0xf8 ? c & 0x07 : c < 0xfc ? c & 0x03 : c < 0xfe ? c & 0x01 : 0;
      while (i < b.length && (b[i]! & 0xc0) === 0x80) c = ((c << 6) + (b[i++]! & 0x3f)) >>> 0;
      if (c < 0x80 || (c & 0xfffff800) >>> 0 === 0xd800) c = REPLACEMENT;
    }
    pushUtf8(out, c);
  }
  return Buffer.from(out);
}

function pushUtf8(out: number[], c: number): void {
  if (c < 0x80) out.push(FOLD[c]!);
  else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
  else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  else if (c <= 0x10ffff)
    out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  else out.push(0xff);
}

/**
 * A search term as `'%' || escaped(term) || '%'` matched it. The pattern reached LIKE
 * as a C string too, so a term with a NUL byte was cut there and lost its trailing `%`:
 * it matched texts that END with the part before the NUL (and, that part empty, every text).
 */
export interface LikeTerm {
  /** likeView of the term (up to its first NUL). */
  view: Buffer;
  /** The term had a NUL: the text must end with `view`. */
  atEnd: boolean;
  /** `view` as a string when it is ASCII (the fast path), else null. */
  ascii: string | null;
}

export function likeTerm(term: string): LikeTerm {
  const nul = term.indexOf('\0');
  const view = likeViewOfString(nul < 0 ? term : term.slice(0, nul));
  return { view, atEnd: nul >= 0, ascii: isAscii(view) ? view.toString('latin1') : null };
}

/** Whether `text LIKE '%term%'` (as above) held for these bytes. */
export function likeMatchesBytes(term: LikeTerm, bytes: Uint8Array): boolean {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (term.ascii !== null) {
    // An ASCII term: SQLite never reads an ASCII byte as part of another character, so
    // the bytes up to the NUL, folded, contain the term exactly when LIKE matched, however
    // the rest decodes. Lower-casing their latin1 string folds A-Z and moves no other
    // byte into ASCII, and V8 does it fast.
    const nul = all.indexOf(0);
    const hay = (nul < 0 ? all : all.subarray(0, nul)).toString('latin1').toLowerCase();
    return term.atEnd ? hay.endsWith(term.ascii) : hay.includes(term.ascii);
  }
  return matchView(term, likeView(all));
}

function matchView(term: LikeTerm, view: Buffer): boolean {
  if (term.atEnd)
    return view.length >= term.view.length && view.subarray(view.length - term.view.length).equals(term.view);
  return view.indexOf(term.view) >= 0;
}
