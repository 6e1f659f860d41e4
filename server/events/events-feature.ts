import type { LogsService } from '../logs/logs-service.ts';
import type { DeliveryObserver } from '../receiver/delivery-observer.ts';
import type { EventBus } from './event-bus.ts';
import { EventStreamService } from './event-stream-service.ts';
import { eventsRoutes } from './events-routes.ts';

export interface EventsFeatureDeps {
  bus: EventBus;
  /** Turns a stored delivery into the `log.created` payload, the same summary the log list shows. */
  logs: Pick<LogsService, 'summarize'>;
  heartbeatMs: number;
  /** Open streams one account may hold at once. */
  maxStreamsPerAccount: number;
}

/**
 * `/api/events`: every feature publishes on the bus; this feature streams it and
 * publishes `log.created` for each delivery the receiver stores.
 */
export function eventsFeature(deps: EventsFeatureDeps) {
  const streams = new EventStreamService({
    bus: deps.bus,
    heartbeatMs: deps.heartbeatMs,
    maxPerAccount: deps.maxStreamsPerAccount,
  });
  const logCreated: DeliveryObserver = {
    stored: (d) => void deps.bus.publish(d.accountId, 'log.created', deps.logs.summarize(d)),
  };
  return {
    name: 'events',
    service: streams,
    routes: eventsRoutes(streams),
    observers: [logCreated],
    // Before the listeners close: open streams would otherwise hold close() open.
    offline: async (): Promise<void> => streams.close(),
  };
}
