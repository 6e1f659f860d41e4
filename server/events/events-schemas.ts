import { z } from 'zod';
import { ENGINE_EVENT_TYPES } from './event-map.ts';

export const EventsQuery = z.object({
  lastEventId: z
    .string({ error: 'lastEventId must be given once, as a whole number.' })
    .regex(/^\d{1,15}$/, { error: 'lastEventId must be a whole number (the id of the last event received).' })
    .optional()
    .meta({ description: 'Resume after this event id (the Last-Event-ID header takes precedence).' }),
});

export const EventStreamSchema = z.string().meta({
  description:
    `Server-sent events: \`id: <n>\`, \`event: <type>\` (${ENGINE_EVENT_TYPES.join(', ')}) and \`data: <json>\` ` +
    'per event; a `: heartbeat` comment every 15 s. The event map, each type with the schema of its data, is the ' +
    '`EngineEvent` component (#/components/schemas/EngineEvent).',
});
