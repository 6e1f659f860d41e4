import { isUtf8 } from 'node:buffer';
import { replayableHeaders, type StoredRequest } from './request-parts.ts';

export interface HttpMessage {
  /** The whole request as bytes: request line, headers, blank line, body. */
  bytes: Buffer;
  /** The same as text when it is valid UTF-8, else null (a binary body). */
  text: string | null;
}

/**
 * The stored request as raw HTTP/1.1 aimed at `url`: request line with the
 * target's path and query, Host of the target, the original headers in order
 * and case (framing headers replaced by a Content-Length of the stored body),
 * CRLF line ends, and the exact body bytes.
 */
export function buildHttpMessage(d: StoredRequest, url: string): HttpMessage {
  const target = new URL(url);
  const body = d.body;
  const lines = [`${d.method} ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`];
  for (const [name, value] of replayableHeaders(d)) lines.push(`${name}: ${value}`);
  const bodyMeaningful = body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(d.method.toUpperCase());
  if (bodyMeaningful) lines.push(`Content-Length: ${body.length}`);
  // Header values are latin1 strings (one char per received byte), so latin1 gives the bytes back.
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const bytes = Buffer.concat([head, body]);
  return { bytes, text: isUtf8(bytes) ? bytes.toString('utf8') : null };
}

/** The message as text for a terminal: a binary body is replaced by a one-line note. */
export function httpForDisplay(d: StoredRequest, url: string): string {
  const m = buildHttpMessage(d, url);
  if (m.text !== null) return m.text;
  const head = m.bytes.subarray(0, m.bytes.length - d.body.length).toString('latin1');
  return `${head}[binary body: ${d.body.length} bytes; export with format=http for the exact bytes]`;
}
