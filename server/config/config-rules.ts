import { z } from 'zod';
import { isAbsoluteHttpUrl } from '../support/absolute-url.ts';

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
