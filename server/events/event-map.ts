import type { z } from 'zod';
import { EndpointChangedSchema } from '../endpoints/endpoint-events.ts';
import { LogUpdatedSchema } from '../logs/log-events.ts';
import { LogSummarySchema } from '../logs/logs-schemas.ts';
import { ForwardStatusSchema, HistoryEntrySchema } from '../replay/replay-schemas.ts';
import { TunnelStatusSchema } from '../tunnel/tunnel-schemas.ts';

/**
 * Every event the engine publishes on `GET /api/events`, by name, with the schema
 * of its `data`. This map types the bus (a publisher cannot send a payload of the
 * wrong shape) and gives subscribers a discriminated union.
 * Payloads that are also API responses reuse the response schema.
 */
export const EVENT_MAP = {
  /** A delivery was stored: the log as the list shows it. */
  'log.created': LogSummarySchema,
  /** Something derived from a stored log changed (analysis, share link, replay, forward). */
  'log.updated': LogUpdatedSchema,
  /** A replay or forward attempt was recorded: its history entry (no response body). */
  'replay.completed': HistoryEntrySchema,
  /** An endpoint's forward queue changed: `GET /api/endpoints/:endpointId/forward`. */
  'forward.updated': ForwardStatusSchema,
  /** An endpoint was created, updated, had its secret regenerated, or was deleted. */
  'endpoint.changed': EndpointChangedSchema,
  /** The tunnel's status changed (sent to every account): `GET /api/tunnel`. */
  'tunnel.status': TunnelStatusSchema,
} as const;

export type EngineEventType = keyof typeof EVENT_MAP;
export type EventPayload<K extends EngineEventType> = z.output<(typeof EVENT_MAP)[K]>;
