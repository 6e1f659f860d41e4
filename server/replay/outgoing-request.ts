import type { HeaderPairs } from '../logs/log-types.ts';
import { FRAMING_HEADERS, HOP_BY_HOP_HEADERS as HOP_BY_HOP } from '../support/headers.ts';

/** Framing and routing headers the sender recomputes for the new request; a user may not set them. */
export const COMPUTED_HEADERS = FRAMING_HEADERS;

/** `null` removes every header of that name; a string replaces them (any case) or adds one. */
export type HeaderOverrides = Record<string, string | null>;

/**
 * The original headers in their order and case, minus hop-by-hop ones (and any
 * the Connection header names). Host and Content-Length keep their position
 * with a recomputed value; a chunked body gets a Content-Length where its
 * Transfer-Encoding was.
 */
export function buildHeaders(
  original: HeaderPairs,
  target: URL,
  body: Buffer,
  overrides: HeaderOverrides,
  signed: HeaderPairs,
): HeaderPairs {
  const named = new Set<string>();
  for (const [name, value] of original) {
    if (name.toLowerCase() === 'connection') for (const n of value.split(',')) named.add(n.trim().toLowerCase());
  }
  let out: HeaderPairs = [];
  let framed = false;
  let hosted = false;
  for (const [name, value] of original) {
    const lower = name.toLowerCase();
    if (lower === 'host') {
      if (!hosted) out.push([name, target.host]);
      hosted = true;
    } else if (lower === 'content-length' || lower === 'transfer-encoding') {
      // One Content-Length at the position of the original framing header; its value is set below.
      if (!framed) out.push([lower === 'content-length' ? name : 'Content-Length', '']);
      framed = true;
    } else if (!HOP_BY_HOP.has(lower) && !named.has(lower)) {
      out.push([name, value]);
    }
  }
  if (!hosted) out.unshift(['Host', target.host]);
  for (const [name, value] of Object.entries(overrides)) out = setHeader(out, name, value);
  // Re-signing comes last so the signature covers the final body and wins over a typed-in header.
  for (const [name, value] of signed) out = setHeader(out, name, value);

  if (!framed && body.length > 0) out.push(['Content-Length', '']);
  return out.map(([n, v]) => (n.toLowerCase() === 'content-length' ? [n, String(body.length)] : [n, v]));
}

/** Replaces every header of the name (any case) at the position of the first, or appends it. */
export function setHeader(headers: HeaderPairs, name: string, value: string | null): HeaderPairs {
  const lower = name.toLowerCase();
  const at = headers.findIndex(([n]) => n.toLowerCase() === lower);
  const rest = headers.filter(([n]) => n.toLowerCase() !== lower);
  if (value === null) return rest;
  if (at === -1) return [...rest, [name, value]];
  // The position among the remaining headers equals `at`: every earlier header was kept.
  return [...rest.slice(0, at), [name, value], ...rest.slice(at)];
}
