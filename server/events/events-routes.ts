import { ValidationError } from '../errors/app-errors.ts';
import { streamRoute, type RouteSpec } from '../http/route.ts';
import type { EventStreamService } from './event-stream-service.ts';
import { EventsQuery, EventStreamSchema } from './events-schemas.ts';

export function eventsRoutes(streams: EventStreamService): RouteSpec[] {
  return [
    streamRoute({
      method: 'get',
      path: '/api/events',
      summary: "Live events for the token's account as server-sent events (resume with Last-Event-ID)",
      tag: 'Events',
      // Acts (the default): a stream holds one of the account's places, so a page on another port must not open one.
      query: EventsQuery,
      stream: {
        contentType: 'text/event-stream',
        description: 'An event stream that stays open; its events are the EngineEvent component (the event map)',
        data: EventStreamSchema,
      },
      errors: {
        429: 'TOO_MANY_EVENT_STREAMS: the account holds as many open streams as allowed (maxEventStreamsPerAccount); Retry-After says when to try again',
      },
      handler: async ({ account, query, req, res }) => {
        streams.stream(account.id, res, resumeAfter(req.get('last-event-id'), query.lastEventId));
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
