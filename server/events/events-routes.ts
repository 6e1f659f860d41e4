import type { z } from 'zod';
import { ValidationError } from '../errors/app-errors.ts';
import { route, type RouteSpec } from '../http/route.ts';
import type { EventStreamService } from './event-stream-service.ts';
import { EventsQuery, EventStreamSchema } from './events-schemas.ts';

export function eventsRoutes(streams: EventStreamService): RouteSpec[] {
  return [
    route<Record<string, never>, z.output<typeof EventsQuery>>({
      method: 'get',
      path: '/api/events',
      summary: "Live events for the token's account as server-sent events (resume with Last-Event-ID)",
      tag: 'Events',
      query: EventsQuery,
      stream: true,
      responses: [
        {
          status: 200,
          description: 'An event stream that stays open; its events are the EngineEvent component (the event map)',
          contentType: 'text/event-stream',
          data: EventStreamSchema,
        },
        { status: 503, description: 'The engine is stopping' },
      ],
      handler: async ({ account, query, req, res }) => {
        streams.stream(account.id, res, resumeAfter(req.get('last-event-id'), query.lastEventId));
        return { data: null };
      },
    }),
  ];
}

/** The header (what EventSource sends on reconnect) wins over the query parameter. */
function resumeAfter(header: string | undefined, query: string | undefined): number | undefined {
  if (header !== undefined && header.trim() !== '') {
    if (!/^\d{1,15}$/.test(header.trim())) {
      throw new ValidationError(
        'The Last-Event-ID header must be a whole number (the id of the last event received).',
        {
          field: 'Last-Event-ID',
        },
      );
    }
    return Number(header.trim());
  }
  return query === undefined ? undefined : Number(query);
}
