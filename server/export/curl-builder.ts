import type { LogDetail } from '../logs/log-types.ts';
import { bodyBytes, headerText, replayableHeaders } from './request-parts.ts';

/**
 * POSIX shell single quoting: inside '...' every character is literal, and a
 * quote is written as '\'' (close, escaped quote, reopen). Safe for any string
 * without NUL, which neither a header nor a URL can hold.
 */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A body can go inline only when it is text that survives being a shell
 * argument: valid UTF-8 without NUL (an argument ends at NUL).
 */
const inlineable = (d: LogDetail, bytes: Buffer): boolean => d.bodyEncoding === 'utf8' && !bytes.includes(0);

/**
 * A cURL command that sends the stored request again to `url`, byte for byte:
 * method, headers in received order and case, and the exact body.
 * - Text bodies go inline with --data-raw (no `@file` interpretation, no stripping).
 * - Other bodies are piped in as base64 (`printf '%s' '...' | base64 -d`) to
 *   --data-binary @-, which sends stdin unchanged.
 * - curl's own defaults (User-Agent, Accept, a form Content-Type) are switched
 *   off with an empty `-H 'Name:'` when the original did not carry them.
 */
export function buildCurl(d: LogDetail, url: string): string {
  const bytes = bodyBytes(d);
  const headers = replayableHeaders(d);
  const has = (name: string): boolean => headers.some(([n]) => n.toLowerCase() === name);
  const parts: string[] = ['curl'];
  const method = d.method.toUpperCase();
  if (method === 'HEAD') parts.push('--head');
  else if (!(method === 'GET' && bytes.length === 0)) parts.push(`-X ${shellQuote(d.method)}`);
  // [ ] { } would be taken as curl URL globs; dot segments would be squashed.
  if (/[[\]{}]/.test(url)) parts.push('--globoff');
  if (/\/\.\.?(\/|$|\?)/.test(url)) parts.push('--path-as-is');
  parts.push(shellQuote(url));
  for (const [name, raw] of headers) {
    const value = headerText(raw);
    // `-H 'Name;'` is curl's way to send a header with an empty value.
    parts.push(`-H ${shellQuote(value === '' ? `${name};` : `${name}: ${value}`)}`);
  }
  if (!has('user-agent')) parts.push(`-H ${shellQuote('User-Agent:')}`);
  if (!has('accept')) parts.push(`-H ${shellQuote('Accept:')}`);
  let prefix = '';
  if (bytes.length > 0) {
    if (!has('content-type')) parts.push(`-H ${shellQuote('Content-Type:')}`);
    if (inlineable(d, bytes)) {
      parts.push(`--data-raw ${shellQuote(bytes.toString('utf8'))}`);
    } else {
      // Base64 survives any shell and terminal; `base64 -d` exists in GNU coreutils, BusyBox and macOS 13+.
      prefix = `printf '%s' ${shellQuote(bytes.toString('base64'))} | base64 -d | `;
      parts.push('--data-binary @-');
    }
  }
  return prefix + parts.join(' \\\n  ');
}
