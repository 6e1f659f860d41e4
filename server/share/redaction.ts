import type { HeaderPairs, QueryObject } from '../logs/log-types.ts';

export const REDACTED = '[redacted]';

export interface SensitiveName {
  /** The name in the compared form: lower case, without `-`, `_`, `.` and spaces. */
  name: string;
  /**
   * `contains`: anywhere in the name (`token` hides `X-Auth-Token` and
   * `refresh_token`); `exact`: the whole name, for words too short or too common
   * to match inside others (`key` would hide `X-Idempotency-Key`, `auth` would
   * hide `author`, `pin` would hide `shipping`); `prefix`: the start of the name,
   * for families of vendor headers (`xsig` hides `X-Sig`, `X-Sig-Key`, `X-Signed-By`).
   */
  match: 'contains' | 'exact' | 'prefix';
}

/** The compared form of a header or query parameter name. */
export const normalizeName = (name: string): string => name.toLowerCase().replace(/[-_.\s]/g, '');

/**
 * The one list of header AND query parameter names whose values a redacted
 * share link or export hides (docs/API.md, "Sharing", shows it). Over-hiding a
 * harmless value costs the reader little; leaking a credential through a link
 * meant for a teammate is what redaction is there to stop.
 */
export const SENSITIVE_NAMES: readonly SensitiveName[] = [
  { name: 'authorization', match: 'contains' }, // Authorization, Proxy-Authorization
  { name: 'cookie', match: 'contains' }, // Cookie, Set-Cookie
  { name: 'apikey', match: 'contains' }, // X-API-Key, api_key, apikey, X-Goog-Api-Key
  { name: 'authkey', match: 'contains' }, // X-Auth-Key, auth_key
  { name: 'token', match: 'contains' }, // X-Auth-Token, X-CSRF-Token, access_token, refresh_token, private_token, id_token
  { name: 'secret', match: 'contains' }, // secret, client_secret, X-Webhook-Secret
  { name: 'password', match: 'contains' }, // password, X-Password, db_password
  { name: 'passwd', match: 'contains' },
  { name: 'pwd', match: 'contains' }, // pwd, user_pwd
  { name: 'session', match: 'contains' }, // session, sessionid, X-Session-Id, JSESSIONID
  { name: 'sessid', match: 'contains' }, // PHPSESSID
  { name: 'credential', match: 'contains' }, // credential, credentials, X-Amz-Credential
  { name: 'accesskey', match: 'contains' }, // access_key, aws_access_key_id
  { name: 'privatekey', match: 'contains' }, // private_key
  { name: 'jwt', match: 'contains' }, // jwt, X-JWT-Assertion
  // Every provider signature header the verifiers know is caught by these two (a unit test holds them to it).
  { name: 'signature', match: 'contains' }, // signature, Stripe-Signature, X-Hub-Signature-256, Webhook-Signature, X-Slack-Signature
  { name: 'hmac', match: 'contains' }, // X-Shopify-Hmac-Sha256
  { name: 'passphrase', match: 'contains' }, // Passphrase, X-Passphrase, key_passphrase
  { name: 'authcode', match: 'contains' }, // X-Auth-Code, auth_code
  { name: 'auth', match: 'exact' }, // ?auth=
  { name: 'xauth', match: 'exact' }, // X-Auth
  { name: 'key', match: 'exact' }, // ?key= (Google-style API keys)
  { name: 'sig', match: 'exact' }, // ?sig= (signed URLs)
  { name: 'pass', match: 'exact' }, // ?pass=
  { name: 'xpass', match: 'exact' }, // X-Pass
  { name: 'code', match: 'exact' }, // ?code= (OAuth authorization codes, magic-link codes)
  { name: 'otp', match: 'exact' }, // ?otp= (one-time passwords)
  { name: 'xotp', match: 'exact' }, // X-Otp
  { name: 'pin', match: 'exact' }, // ?pin=
  { name: 'bearer', match: 'exact' }, // ?bearer=
  { name: 'xbearer', match: 'exact' }, // X-Bearer
  { name: 'dsn', match: 'exact' }, // DSN (Sentry-style DSNs carry their key)
  { name: 'xrefresh', match: 'prefix' }, // X-Refresh, X-Refresh-Key, X-Refresh-Id
  { name: 'xsig', match: 'prefix' }, // X-Sig, X-Sig-Key, X-Signed-By (and every X-Signature*)
];

const EXACT = new Set(SENSITIVE_NAMES.filter((s) => s.match === 'exact').map((s) => s.name));
const CONTAINS = SENSITIVE_NAMES.filter((s) => s.match === 'contains').map((s) => s.name);
const PREFIXES = SENSITIVE_NAMES.filter((s) => s.match === 'prefix').map((s) => s.name);

/** Whether a header's or query parameter's value is a credential or a signature that a shared copy must not carry. */
export function isSensitiveName(name: string): boolean {
  const n = normalizeName(name);
  return EXACT.has(n) || CONTAINS.some((part) => n.includes(part)) || PREFIXES.some((start) => n.startsWith(start));
}

const hide = (v: string | string[]): string | string[] => (Array.isArray(v) ? v.map(() => REDACTED) : REDACTED);

/**
 * The path with every segment after the first replaced by `[redacted]`
 * (`/services/T0/B0/xyz` -> `/services/[redacted]/[redacted]/[redacted]`), for
 * senders that put their secret in the URL (Slack, Discord, Zapier and Teams
 * incoming webhooks). The first segment is kept: it is where a route name sits
 * (`/github`, `/services`, `/hooks`) and what tells a reader which integration
 * sent it; a sender whose secret IS the first segment is not covered. Empty
 * segments (`//`, a trailing `/`) stay empty, so the path keeps its shape. Every
 * segment is hidden whatever it looks like: guessing which ones are secrets would
 * leak the one that does not look like it.
 */
export function redactPath(path: string): string {
  return path
    .split('/')
    .map((segment, i) => (i >= 2 && segment !== '' ? REDACTED : segment))
    .join('/');
}

/**
 * A copy of a stored log with credential and signature values replaced by
 * `[redacted]` in rawHeaders and the query (one name rule for both; the detail's
 * `headers` object is made from rawHeaders, so it follows). Names, order and the
 * verification verdict stay, so the reader still sees what was sent and whether
 * it verified. The body is left as received, and so is the path (redactPath
 * hides it, a separate choice).
 */
export function redactLog<T extends { query: QueryObject; rawHeaders: HeaderPairs }>(log: T): T {
  const query = Object.create(null) as QueryObject;
  for (const [k, v] of Object.entries(log.query)) query[k] = isSensitiveName(k) ? hide(v) : v;
  return {
    ...log,
    query,
    rawHeaders: log.rawHeaders.map(([n, v]) => [n, isSensitiveName(n) ? REDACTED : v]),
  };
}
