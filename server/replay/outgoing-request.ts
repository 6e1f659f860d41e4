import type { HeaderPairs } from '../logs/log-types.ts';
import { FRAMING_HEADERS, HOP_BY_HOP_HEADERS as HOP_BY_HOP } from '../support/headers.ts';

/** Framing and routing headers the sender recomputes for the new request; a user may not set them. */
export const COMPUTED_HEADERS = FRAMING_HEADERS;

/** `null` removes every header of that name; a string replaces them (any case) or adds one. */
export type HeaderOverrides = Record<string, string | null>;

/**
 * Sender headers never sent on by a forward or a replay (the user may still type
 * one in an edited replay: overrides come after). A sender chooses every header,
 * and a signature covers the body only, so these would let one captured delivery
 * steer the target:
 * - re-routing: IIS and Symfony serve `X-Original-URL`/`X-Rewrite-URL` instead of
 *   the request line's path, and method-override middleware (Express's
 *   method-override, Rack, Symfony, ASP.NET) runs the handler of the method these
 *   name: routes and methods other than the ones the request line names;
 * - forwarding claims: `X-Forwarded-*` (any), `Forwarded` and `X-Real-IP` are what
 *   a proxy says about the client; a target behind a trusted proxy believes them
 *   (client IP allow-lists, absolute URLs it builds). The engine writes its own
 *   X-Forwarded-* instead (forwardedHeaders).
 */
const REROUTING_HEADERS: ReadonlySet<string> = new Set([
  'x-original-url',
  'x-rewrite-url',
  'x-http-method-override',
  'x-method-override',
  'x-http-method',
]);
const FORWARDING_CLAIMS: ReadonlySet<string> = new Set(['forwarded', 'x-real-ip']);
const FORWARDING_CLAIM_PREFIX = 'x-forwarded-';

/** Whether a sender's header of this name is dropped (see REROUTING_HEADERS); any case. */
export function isDroppedSenderHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return REROUTING_HEADERS.has(lower) || FORWARDING_CLAIMS.has(lower) || lower.startsWith(FORWARDING_CLAIM_PREFIX);
}

/** What the engine itself knows about how a delivery reached it, from the stored log. */
export interface ArrivalFacts {
  /** The sender's address as recorded (the socket's peer), or null. */
  sourceIp: string | null;
  /** The log's headers as received: the first `Host` is the host the sender used. */
  rawHeaders: HeaderPairs;
  /** The engine's public base URL now (tunnel or configured), or null. */
  publicBase: string | null;
}

/**
 * The engine's own X-Forwarded-For, -Host and -Proto for a delivery, as a proxy
 * in front of the target would write them. Proto: the engine listens on plain
 * HTTP only, so a delivery arrived over https only through a public URL that
 * terminates TLS in front of it (the tunnel, or a proxy in front of a team server).
 * The log records the Host the sender used, not the scheme; a Host equal to the
 * public base URL's host (default port or none) came through it and gets that
 * URL's scheme, every other Host (127.0.0.1, localhost, a LAN address) came
 * straight to a listener: http. A delivery that came through an earlier tunnel
 * address than today's is therefore reported as http.
 */
export function forwardedHeaders(facts: ArrivalFacts): HeaderPairs {
  const host = facts.rawHeaders.find(([n]) => n.toLowerCase() === 'host')?.[1] ?? null;
  const out: HeaderPairs = [];
  if (facts.sourceIp) out.push(['X-Forwarded-For', facts.sourceIp]);
  if (host) out.push(['X-Forwarded-Host', host]);
  out.push(['X-Forwarded-Proto', arrivalScheme(host, facts.publicBase)]);
  return out;
}

function arrivalScheme(host: string | null, publicBase: string | null): 'http' | 'https' {
  if (host === null || publicBase === null) return 'http';
  let same = false;
  try {
    const base = new URL(publicBase);
    // Parsed with the base's scheme, so `h:443` and `h` are the same host for https.
    same = new URL(`${base.protocol}//${host}`).host === base.host && base.protocol === 'https:';
  } catch {
    // A Host header that is no URL host came to a listener directly.
  }
  return same ? 'https' : 'http';
}

/**
 * The original headers in their order and case, minus hop-by-hop ones (and any
 * the Connection header names) and the sender's re-routing and forwarding
 * headers (isDroppedSenderHeader). Host and Content-Length keep their position
 * with a recomputed value; a chunked body gets a Content-Length where its
 * Transfer-Encoding was. The engine's `forwarded` headers come after the
 * original ones, then the user's overrides, then re-signed headers.
 */
export function buildHeaders(
  original: HeaderPairs,
  target: URL,
  body: Buffer,
  overrides: HeaderOverrides,
  signed: HeaderPairs,
  forwarded: HeaderPairs,
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
    } else if (!HOP_BY_HOP.has(lower) && !named.has(lower) && !isDroppedSenderHeader(lower)) {
      out.push([name, value]);
    }
  }
  if (!hosted) out.unshift(['Host', target.host]);
  out.push(...forwarded);
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
