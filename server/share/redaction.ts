import type { LogDetail } from '../logs/log-types.ts';
import { PROVIDER_SIGNATURE_HEADERS } from '../receiver/verifiers/provider-headers.ts';

export const REDACTED = '[redacted]';

const ALWAYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const SIGNATURE_HEADERS = new Set<string>(Object.values(PROVIDER_SIGNATURE_HEADERS).flat());
// Substrings that mark a credential in a header (or query parameter) name, compared without `-`/`_`.
const SENSITIVE_PARTS = ['apikey', 'token', 'secret', 'signature'];

/** Whether a header's value is a credential or a signature that a shared copy must not carry. */
export function isSensitiveHeader(name: string): boolean {
  const n = name.toLowerCase();
  if (ALWAYS.has(n) || SIGNATURE_HEADERS.has(n)) return true;
  const squashed = n.replace(/[-_]/g, '');
  return SENSITIVE_PARTS.some((p) => squashed.includes(p));
}

/** Query parameters are held to the same name rule (`?token=...`, `?api_key=...`). */
const isSensitiveParam = (name: string): boolean => {
  const squashed = name.toLowerCase().replace(/[-_]/g, '');
  return SENSITIVE_PARTS.some((p) => squashed.includes(p)) || squashed === 'auth' || squashed === 'key';
};

const hide = (v: string | string[]): string | string[] => (Array.isArray(v) ? v.map(() => REDACTED) : REDACTED);

/**
 * A copy of a log detail with credential and signature values replaced by
 * `[redacted]` in headers, rawHeaders and the query. Names, order and the
 * verification verdict stay, so the reader still sees what was sent and
 * whether it verified. The body is left as received.
 */
export function redactDetail(d: LogDetail): LogDetail {
  const headers = Object.create(null) as LogDetail['headers'];
  for (const [k, v] of Object.entries(d.headers)) headers[k] = isSensitiveHeader(k) ? hide(v) : v;
  const query = Object.create(null) as LogDetail['query'];
  for (const [k, v] of Object.entries(d.query)) query[k] = isSensitiveParam(k) ? hide(v) : v;
  return {
    ...d,
    query,
    headers,
    rawHeaders: d.rawHeaders.map(([n, v]) => [n, isSensitiveHeader(n) ? REDACTED : v]),
  };
}
