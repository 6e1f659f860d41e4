import { isUtf8 } from 'node:buffer';
import { hasTerminalControls } from '../support/control-chars.ts';
import { headerValue } from '../support/headers.ts';
import { shellQuote } from '../support/shell-quote.ts';
import { replayableHeaders, type StoredRequest } from './request-parts.ts';

/*
 * Bytes a terminal would act on (C0 but tab and newline, DEL, the C1 controls)
 * must not appear raw in the command: it is printed (`hookscope export`,
 * `diagnose`) and pasted. Bytes that are not UTF-8 cannot appear raw either,
 * since the command is UTF-8 text.
 *
 * Such words are written for `printf '%b'` with octal escapes (`\0033` is ESC),
 * and not as bash's `$'\x1b'`: printf and `%b` with `\0ddd` are POSIX, so the
 * command runs the same in bash, zsh and dash (`sh` on Debian and Ubuntu, which
 * has no `$'...'`); printf is a builtin there, so a large body never meets the
 * argument size limit of exec; and `%b` can produce NUL, which no argument can
 * hold. Escapes always have three octal digits, so a digit that follows is
 * never taken into them.
 */

/** Writes `\0ooo` (printf's octal escape, always three digits) for one byte at `o`; answers the next offset. */
function writeOctal(out: Buffer, o: number, byte: number): number {
  out[o] = 0x5c; // \
  out[o + 1] = 0x30; // 0
  out[o + 2] = 0x30 + ((byte >> 6) & 7);
  out[o + 3] = 0x30 + ((byte >> 3) & 7);
  out[o + 4] = 0x30 + (byte & 7);
  return o + 5;
}

/**
 * The text of a `printf '%b'` argument (to go inside single quotes) that prints
 * exactly `bytes`: `\` doubled; `'`, controls (C0 but tab and newline, DEL,
 * C1 written as UTF-8) and, when the bytes are not UTF-8, every byte outside
 * printable ASCII as octal escapes; the rest (UTF-8 text, newline, tab) as
 * itself. One pass over the bytes into one buffer: a 10 MiB body takes
 * milliseconds, not the second a replace() callback per byte would.
 */
export function printfEscaped(bytes: Buffer): string {
  const utf8 = isUtf8(bytes);
  const out = Buffer.allocUnsafe(bytes.length * 5);
  let o = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x5c) {
      out[o++] = 0x5c;
      out[o++] = 0x5c;
    } else if ((b >= 0x20 && b < 0x7f && b !== 0x27) || b === 0x0a || b === 0x09) {
      out[o++] = b;
    } else if (b < 0x80 || !utf8) {
      o = writeOctal(out, o, b); // quote, C0, DEL; any byte of a body that is not UTF-8
    } else if (b === 0xc2 && bytes[i + 1]! >= 0x80 && bytes[i + 1]! <= 0x9f) {
      o = writeOctal(out, o, b); // U+0080..U+009F, the C1 controls, are C2 80..C2 9F in UTF-8
      o = writeOctal(out, o, bytes[++i]!);
    } else {
      out[o++] = b; // the rest of valid UTF-8 text
    }
  }
  return out.toString('utf8', 0, o);
}

/** Whether these bytes can be a plain single-quoted word: UTF-8 and nothing a terminal acts on. */
const plainText = (bytes: Buffer): boolean => isUtf8(bytes) && !hasTerminalControls(bytes.toString('utf8'));

/** A shell word for these bytes (an argument: no NUL), quoted plainly when that is safe to print. */
export function shellWord(bytes: Buffer): string {
  if (plainText(bytes)) return shellQuote(bytes.toString('utf8'));
  return `"$(printf '%b' '${printfEscaped(bytes)}')"`;
}

const word = (s: string): string => shellWord(Buffer.from(s, 'utf8'));

/**
 * Bodies up to this size go inline as --data-raw; larger ones are piped from
 * printf, a builtin, since Linux refuses an exec argument over 128 KiB.
 */
const INLINE_BODY_MAX = 64 * 1024;

/**
 * A cURL command that sends the stored request again to `url`, byte for byte:
 * method, headers in received order and case, and the exact body. The command
 * holds no control character and no byte outside UTF-8, so printing it is safe
 * and pasting it gives back the same bytes.
 * - Text bodies go inline with --data-raw (no `@file` interpretation, no stripping).
 * - Other bodies (controls, NUL, not UTF-8, large) are piped from
 *   `printf '%b' '...'` to --data-binary @-, which sends stdin unchanged.
 * - A header whose bytes are not plain text is built by printf inside the argument.
 * - curl's own defaults (User-Agent, Accept, a form Content-Type) are switched
 *   off with an empty `-H 'Name:'` when the original did not carry them.
 */
export function buildCurl(d: StoredRequest, url: string): string {
  const bytes = d.body;
  const headers = replayableHeaders(d);
  const has = (name: string): boolean => headerValue(headers, name) !== undefined;
  const parts: string[] = ['curl'];
  const method = d.method.toUpperCase();
  if (method === 'HEAD') parts.push('--head');
  else if (!(method === 'GET' && bytes.length === 0)) parts.push(`-X ${word(d.method)}`);
  // [ ] { } would be taken as curl URL globs; dot segments would be squashed.
  if (/[[\]{}]/.test(url)) parts.push('--globoff');
  if (/\/\.\.?(\/|$|\?)/.test(url)) parts.push('--path-as-is');
  parts.push(word(url));
  for (const [name, raw] of headers) {
    // Header values are latin1 strings (one char per received byte): latin1 gives the bytes back.
    // `-H 'Name;'` is curl's way to send a header with an empty value.
    const line = raw === '' ? `${name};` : `${name}: ${raw}`;
    parts.push(`-H ${shellWord(Buffer.from(line, 'latin1'))}`);
  }
  if (!has('user-agent')) parts.push(`-H ${shellQuote('User-Agent:')}`);
  if (!has('accept')) parts.push(`-H ${shellQuote('Accept:')}`);
  let prefix = '';
  if (bytes.length > 0) {
    if (!has('content-type')) parts.push(`-H ${shellQuote('Content-Type:')}`);
    if (bytes.length <= INLINE_BODY_MAX && plainText(bytes)) {
      parts.push(`--data-raw ${shellQuote(bytes.toString('utf8'))}`);
    } else {
      prefix = `printf '%b' '${printfEscaped(bytes)}' | `;
      parts.push('--data-binary @-');
    }
  }
  return prefix + parts.join(' \\\n  ');
}
