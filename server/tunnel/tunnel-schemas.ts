import { z } from 'zod';
import { booleanLike, httpUrl } from '../http/schemas.ts';
import { SUBDOMAIN_PATTERN } from './subdomain.ts';
import { TUNNEL_STATES } from './tunnel-types.ts';

/** What `GET /api/tunnel` answers and the `tunnel.status` event carries. */
export const TunnelStatusSchema = z
  .strictObject({
    state: z.enum(TUNNEL_STATES),
    enabled: z.boolean(),
    url: z.string().nullable().meta({ description: 'The public base URL while online or degraded, else null.' }),
    since: z.string().meta({ description: 'When the current state began (ISO 8601).' }),
    lastError: z
      .string()
      .nullable()
      .meta({ description: 'The last problem, as a sentence (also set while online after a subdomain fallback).' }),
    attempts: z
      .number()
      .int()
      .meta({ description: 'Connection attempts since the tunnel was enabled or last dropped.' }),
    host: z.string().meta({ description: 'The localtunnel server.' }),
    subdomain: z
      .string()
      .nullable()
      .meta({ description: 'The subdomain in use while online, else the one asked for.' }),
    lastDeliveryAt: z
      .string()
      .nullable()
      .meta({ description: 'When the last delivery that came through the tunnel was stored.' }),
    checkedAt: z.string().nullable().meta({
      description:
        'When the last round trip through the public URL ended (ISO 8601): the engine sends itself a request through the tunnel every probe interval, as a sender would.',
    }),
    roundTripMs: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'How long that round trip took when it reached this engine; null when it failed.' }),
    retryAt: z
      .string()
      .nullable()
      .meta({ description: 'While offline or in error: when the next connection attempt starts (ISO 8601).' }),
    browserNotice: z
      .string()
      .nullable()
      .meta({ description: 'While online through the public localtunnel service: what a browser visitor must do.' }),
  })
  .meta({ id: 'TunnelStatus' });

export type TunnelView = z.infer<typeof TunnelStatusSchema>;

const subdomain = z
  .string({ error: 'subdomain must be a string or null.' })
  .regex(SUBDOMAIN_PATTERN, { error: 'subdomain must be 4 to 63 lowercase letters and digits.' })
  .nullable()
  .meta({ description: 'The subdomain to ask for; null takes a fresh random one.' });

export const UpdateTunnelBody = z
  .object({
    enabled: booleanLike('enabled').optional(),
    host: httpUrl('host').optional().meta({ description: 'The localtunnel server, an absolute http(s) URL.' }),
    subdomain: subdomain.optional(),
  })
  .refine((b) => b.enabled !== undefined || b.host !== undefined || b.subdomain !== undefined, {
    error: 'Send at least one of enabled, host and subdomain.',
  });
