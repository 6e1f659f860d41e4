// Helpers for headers as ordered [name, value] pairs (the log's rawHeaders, a replay's
// request and response headers): names keep their case, so lookups ignore it.

/**
 * Headers that describe one connection, not the message (RFC 9110 section 7.6.1),
 * plus `expect` (a per-hop negotiation). They are never copied to another hop.
 */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** The message's length and connection headers: whoever writes a message computes them, a user never sets them. */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'transfer-encoding',
  ...HOP_BY_HOP_HEADERS,
]);

/**
 * Lower-case names; a header received more than once becomes an array, in order.
 * The object has no prototype so a header named `__proto__` is just a header.
 */
export function headerObject(pairs: readonly (readonly [string, string])[]): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

/** Node's flat rawHeaders ([name, value, name, value, ...]) as ordered pairs, case kept. */
export function headerPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/** The first value of a header, any case; undefined when it is absent. */
export function headerValue(pairs: readonly (readonly [string, string])[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return pairs.find(([n]) => n.toLowerCase() === lower)?.[1];
}
