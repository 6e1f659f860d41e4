import type { EngineEvent, EngineEventOf } from './event-bus.ts';
import type { EngineEventType } from './event-map.ts';

/** An event before it has an id: the transport gives it one. */
export type EventDraft = { [K in EngineEventType]: Omit<EngineEventOf<K>, 'id'> }[EngineEventType];

/**
 * How published events get their id and reach the subscribers of every engine
 * sharing the store. The in-process transport (below) is the embedded engine's:
 * ids per engine run, recent events in a ring, delivered synchronously. A team
 * server's is the PostgreSQL backend's (server/storage/postgres/events-postgres.ts):
 * an events table whose ids are global, fanned out to every instance.
 */
export interface EventTransport {
  /**
   * True when other engines publish through the same store, so caches must
   * refresh from events and a cache miss must read the database.
   */
  readonly shared: boolean;
  /**
   * Names the sequence the ids come from (`GET /api/version`'s `events`): a client
   * that reconnects and finds another value resumes from 0, since its last id
   * means nothing there (an embedded engine's ids restart with each run).
   */
  readonly idSpace: string;
  /** Where delivered events go (the bus's dispatcher); set once, before any append. */
  deliverTo(sink: (event: EngineEvent) => void): void;
  /**
   * Hands over a new event. Never throws and never waits: publishing is on the
   * receiver's hot path. The event reaches `sink` (with its id) once stored.
   */
  append(draft: EventDraft): void;
  /**
   * The account's kept events after `afterId`, in id order (for `Last-Event-ID`
   * resume). Synchronous where the events are in memory, so the embedded
   * engine replays before a subscription goes live, as it always has.
   */
  since(accountId: string, afterId: number): EngineEvent[] | Promise<EngineEvent[]>;
}

/** The embedded engine's transport: ids increasing per run, the last `historySize` events kept in memory. */
export class InProcessEventTransport implements EventTransport {
  readonly shared = false;
  private nextId = 1;
  private readonly recent: EngineEvent[] = [];
  private sink: (event: EngineEvent) => void = () => {};

  constructor(
    /** This run's: ids restart at 1 with every engine start. */
    readonly idSpace: string,
    private readonly historySize = 1000,
  ) {}

  deliverTo(sink: (event: EngineEvent) => void): void {
    this.sink = sink;
  }

  append(draft: EventDraft): void {
    const event: EngineEvent = { ...draft, id: this.nextId++ };
    this.recent.push(event);
    if (this.recent.length > this.historySize) this.recent.shift();
    this.sink(event);
  }

  since(accountId: string, afterId: number): EngineEvent[] {
    return this.recent.filter((e) => e.id > afterId && e.accountId === accountId);
  }
}
