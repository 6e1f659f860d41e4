import { z } from 'zod';
import { EndpointChangedSchema } from '../endpoints/endpoint-events.ts';
import { LogDeletedSchema, LogUpdatedSchema } from '../logs/log-events.ts';
import { LogSummarySchema } from '../logs/logs-schemas.ts';
import { RefusalsSchema } from '../metrics/refusals-schemas.ts';
import { ForwardStatusSchema, HistoryEntrySchema } from '../replay/replay-schemas.ts';
import { SettingsChangedSchema } from '../settings/settings-schemas.ts';
import { TunnelStatusSchema } from '../tunnel/tunnel-schemas.ts';

/**
 * Every event the engine publishes on `GET /api/events`, by name, with the schema
 * of its `data`. This map types the bus (a publisher cannot send a payload of the
 * wrong shape), gives subscribers a discriminated union, and feeds the OpenAPI
 * document (the `EngineEvent` component), so the generated client types follow it.
 * Payloads that are also API responses reuse the response schema.
 */
export const EVENT_MAP = {
  /** A delivery was stored: the log as the list shows it. */
  'log.created': LogSummarySchema,
  /** Something about a stored log changed (analysis, share link, replay, forward, pin). */
  'log.updated': LogUpdatedSchema,
  /** Logs were deleted by a user (one, many, or an endpoint's clear): their ids, per endpoint. */
  'log.deleted': LogDeletedSchema,
  /** A replay or forward attempt was recorded: its history entry (no response body). */
  'replay.completed': HistoryEntrySchema,
  /** An endpoint's forward queue changed: `GET /api/endpoints/:endpointId/forward`. */
  'forward.updated': ForwardStatusSchema,
  /** An endpoint was created, updated, had its secret regenerated, or was deleted. */
  'endpoint.changed': EndpointChangedSchema,
  /** The tunnel's status changed (sent to every account): `GET /api/tunnel`. */
  'tunnel.status': TunnelStatusSchema,
  /** Engine-wide settings changed (sent to every account): `GET /api/settings`. */
  'settings.changed': SettingsChangedSchema,
  /** Deliveries were refused (at most one event a second per account): `GET /api/observability/refusals?window=1m`. */
  'refusals.counted': RefusalsSchema,
} as const;

export type EngineEventType = keyof typeof EVENT_MAP;
export type EventPayload<K extends EngineEventType> = z.output<(typeof EVENT_MAP)[K]>;

export const ENGINE_EVENT_TYPES = Object.keys(EVENT_MAP) as EngineEventType[];

/** `log.created` -> `LogCreatedEvent`, the component name of that event in the OpenAPI document. */
const componentName = (type: string): string =>
  type
    .split('.')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('') + 'Event';

const eventSchema = (type: EngineEventType) =>
  z.object({ type: z.literal(type), data: EVENT_MAP[type] }).meta({ id: componentName(type) });

const [first, ...rest] = ENGINE_EVENT_TYPES.map(eventSchema);

/**
 * One event as a client reads it off the stream: `type` is the SSE `event:`
 * field and `data` the JSON on its `data:` line (the `id:` field is for resume).
 */
export const EngineEventSchema = z.discriminatedUnion('type', [first!, ...rest]).meta({
  id: 'EngineEvent',
  description:
    'An event of GET /api/events: `type` is the SSE `event:` field, `data` the JSON of its `data:` line. ' +
    'Clients ignore types they do not know.',
});

/** The event map's components for the OpenAPI document (buildOpenApiDocument's `schemas`). */
export const EVENT_SCHEMAS: z.ZodType[] = [EngineEventSchema];
