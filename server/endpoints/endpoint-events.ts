import { z } from 'zod';

/** `secret_regenerated`: Hookscope made or took a new hmac_sha256 secret; `secret_set`: the sender's secret was set (PUT .../secret). */
export const ENDPOINT_CHANGES = ['created', 'updated', 'secret_regenerated', 'secret_set', 'deleted'] as const;

/**
 * The `endpoint.changed` event: which endpoint and what happened to it. Only the
 * id, never the endpoint or its secret: events are kept for resume, and a client
 * refetches the endpoint (or drops it, once deleted).
 */
export const EndpointChangedSchema = z
  .object({
    endpointId: z.string(),
    change: z.enum(ENDPOINT_CHANGES),
  })
  .meta({ id: 'EndpointChanged' });

export type EndpointChanged = z.output<typeof EndpointChangedSchema>;
