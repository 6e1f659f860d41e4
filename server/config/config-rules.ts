import { isIP } from 'node:net';
import { z } from 'zod';
import { ACCOUNT_NAME_RE } from '../auth/account-id.ts';
import { checkHttpUrl, isAbsoluteHttpUrl } from '../support/absolute-url.ts';

/**
 * The rules of the settings a user may change, shared by config.json
 * (config.ts) and `PATCH /api/settings` (server/settings), so a value the
 * Settings screen saves is exactly one the next start accepts from the file.
 * Messages are sentence endings: each caller puts the field's name before them.
 */

/** Tunnel subdomains we ask for (the localtunnel servers accept these). */
export const SUBDOMAIN_RE = /^[a-z0-9]{4,63}$/;

const WHOLE_FROM_1 = 'must be a whole number of at least 1.';
const URL_RULE = 'must be an absolute http:// or https:// URL.';

export const port = z.number().int().min(0).max(65535);

export const positiveInt = z
  .number({ error: WHOLE_FROM_1 })
  .int({ error: WHOLE_FROM_1 })
  .min(1, { error: WHOLE_FROM_1 });

/** Deliveries per second per endpoint; 0 turns the limiter off. */
export const rateLimitPerSecond = z
  .number({ error: 'must be a whole number of at least 0 (0 turns the limit off).' })
  .int({ error: 'must be a whole number of at least 0 (0 turns the limit off).' })
  .min(0, { error: 'must be a whole number of at least 0 (0 turns the limit off).' });

export const absoluteHttpUrl = z.string({ error: URL_RULE }).refine(isAbsoluteHttpUrl, { error: URL_RULE });

export const tunnelSubdomain = z
  .string({ error: 'must be a string or null.' })
  .regex(SUBDOMAIN_RE, { error: 'must be 4-63 lowercase letters and digits.' });

// Trimmed, as the z.url() this replaced did; the same message for a non-string.
export const llmUrl = z.string({ error: URL_RULE }).trim().refine(isAbsoluteHttpUrl, { error: URL_RULE });

export const llmModel = z.string({ error: 'must be a string.' }).min(1, { error: 'must not be empty.' });

export const llmApiKey = z.string({ error: 'must be a string.' }).min(1, { error: 'must not be empty.' });

const PUBLIC_URL_RULE =
  'must be an absolute http:// or https:// URL with no path, query or fragment, such as https://hooks.example.com.';

/**
 * A team server's public URL, as its origin (`https://hooks.example.com`, a
 * trailing slash dropped, the host lower-cased), or null when it breaks the rule.
 * An origin only: the UI, the API, /webhook and /share are served at the root.
 */
export function publicOrigin(value: string): string | null {
  const checked = checkHttpUrl(value);
  if (!checked.ok) return null;
  const u = checked.url;
  if (
    u.username ||
    u.password ||
    u.pathname !== '/' ||
    u.search ||
    u.hash ||
    value.includes('?') ||
    value.includes('#')
  )
    return null;
  return u.origin;
}

export const publicUrl = z
  .string({ error: PUBLIC_URL_RULE })
  .refine((v) => publicOrigin(v) !== null, { error: PUBLIC_URL_RULE })
  .transform((v) => publicOrigin(v)!);

const BIND_HOST_RULE = 'must be an IP address (such as 0.0.0.0 or 127.0.0.1) or a host name.';
const HOST_NAME_RE = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** An address a listener binds to. */
export const isBindHost = (v: string): boolean => isIP(v) !== 0 || (v.length <= 253 && HOST_NAME_RE.test(v));
export const bindHost = z.string({ error: BIND_HOST_RULE }).refine(isBindHost, { error: BIND_HOST_RULE });

const ACCOUNT_NAME_RULE = 'must be 1 to 64 letters, digits or . _ @ -.';
export const accountName = z.string({ error: ACCOUNT_NAME_RULE }).regex(ACCOUNT_NAME_RE, { error: ACCOUNT_NAME_RULE });

/** Sign-in attempts per minute per source address; 0 turns the limit off. */
export const signInPerMinute = z
  .number({ error: 'must be a whole number of at least 0 (0 turns the limit off).' })
  .int({ error: 'must be a whole number of at least 0 (0 turns the limit off).' })
  .min(0, { error: 'must be a whole number of at least 0 (0 turns the limit off).' });
