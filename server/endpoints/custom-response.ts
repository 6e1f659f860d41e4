import { FRAMING_HEADERS } from '../support/headers.ts';

/**
 * What the receiver answers an accepted delivery with instead of `{ id }`, so a
 * user can see how a provider treats a slow, failing or odd answer (its retries).
 */
export interface CustomResponse {
  status: number;
  /** In order and case as given; a name may repeat. */
  headers: { name: string; value: string }[];
  body: string;
  /** How long to wait before answering; the delivery is stored before the wait. */
  delayMs: number;
}

export const CUSTOM_RESPONSE_LIMITS = {
  // 1xx are interim answers, not a final one; 3xx are allowed: a redirect is an answer a provider must handle.
  minStatus: 200,
  maxStatus: 599,
  maxHeaders: 50,
  maxHeaderValueChars: 8192,
  maxBodyBytes: 64 * 1024,
  maxDelayMs: 30_000,
} as const;

/** Names the stored log on a custom answer, whose body no longer does (the test delivery reads it). */
export const LOG_ID_HEADER = 'Hookscope-Log-Id';

/** Statuses that carry no content (RFC 9110 sections 15.3.5, 15.3.6, 15.4.5). */
export const BODILESS_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** Framing and connection headers are the receiver's to write; the log id header is the engine's. */
export function isReservedResponseHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FRAMING_HEADERS.has(lower) || lower === LOG_ID_HEADER.toLowerCase();
}

/**
 * A custom answer never sets a cookie: cookies ignore ports, so a cookie set by
 * the receiver's port (or the tunnel's host, for a browser on this machine)
 * would reach the UI's origin on the API port.
 */
export function isCookieHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'set-cookie' || lower === 'set-cookie2';
}

/**
 * Written first on every custom answer: whatever its body and Content-Type, a
 * browser that opens it runs no script and loads nothing (an opaque origin), and
 * does not guess another type. Whoever can create an endpoint chooses that body:
 * another account of this install, or a sender's accomplice.
 */
export const INERT_ANSWER_HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Security-Policy', "sandbox; default-src 'none'"],
  ['X-Content-Type-Options', 'nosniff'],
];

/** A value Node writes as is: visible ASCII or Latin-1, spaces and tabs; no line break or other control byte. */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
