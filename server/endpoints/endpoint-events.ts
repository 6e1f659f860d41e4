import { z } from 'zod';

export const ENDPOINT_CHANGES = ['created', 'updated', 'secret_regenerated', 'deleted'] as const;

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
