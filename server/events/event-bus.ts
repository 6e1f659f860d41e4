import type { EngineEventType, EventPayload } from './event-map.ts';
import { InProcessEventTransport, type EventDraft, type EventTransport } from './event-transport.ts';

/**
 * What the engine tells live clients (the UI and `hookscope tail`) over
 * `GET /api/events`: one event of type `K`. Every event belongs to one account
 * and only reaches it.
 */
export interface EngineEventOf<K extends EngineEventType> {
  /**
   * The SSE `id:` field, used for `Last-Event-ID` resume: increasing per engine
   * run in the embedded engine, global across a team server's instances.
   */
  id: number;
  accountId: string;
  type: K;
  data: EventPayload<K>;
  at: number;
}

/** Any event, discriminated by `type` (narrowing on it types `data`). */
export type EngineEvent = { [K in EngineEventType]: EngineEventOf<K> }[EngineEventType];

export type EventListener = (event: EngineEvent) => void;

export interface EventBusOptions {
  /** How many recent events the in-process transport keeps for `Last-Event-ID` resume. */
  historySize?: number;
  now?: () => number;
  /** Where events get their ids and how they reach every engine (default: in process, see event-transport.ts). */
  transport?: EventTransport;
  /** The in-process transport's id space: one per engine run (the engine passes a random one). */
  runId?: string;
}

/**
 * A publish/subscribe hub, one per engine (no module state), over a transport
 * the storage backend chooses. A listener that throws is removed rather than
 * allowed to break publishers: the receiver publishes on its hot path and must
 * never fail because a client did.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly observers = new Set<EventListener>();
  private readonly transport: EventTransport;
  private readonly now: () => number;

  constructor(opts: EventBusOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.transport = opts.transport ?? new InProcessEventTransport(opts.runId ?? 'run', opts.historySize ?? 1000);
    this.transport.deliverTo((e) => this.dispatch(e));
  }

  /** What the event ids are numbered in (EventTransport.idSpace). */
  get idSpace(): string {
    return this.transport.idSpace;
  }

  /** True when other engines share the store (a team server): caches refresh from `observe`. */
  get shared(): boolean {
    return this.transport.shared;
  }

  /** Publishes to one account; `data` must match the event map's schema for `type`. */
  publish<K extends EngineEventType>(accountId: string, type: K, data: EventPayload<K>): void {
    // TypeScript cannot tell that a draft of a generic K is a member of the union.
    this.transport.append({ accountId, type, data, at: this.now() } as EventDraft);
  }

  /** Publishes to every account that has listeners or history (tunnel status is engine-wide). */
  broadcast<K extends EngineEventType>(type: K, data: EventPayload<K>, accountIds: Iterable<string>): void {
    for (const id of accountIds) this.publish(id, type, data);
  }

  /**
   * Subscribes an account's listener. With `afterId`, the kept events after it are
   * delivered first (only those kept: a client whose id is older refetches).
   * In process they are replayed before this returns; from a shared store they
   * are read first and events arriving meanwhile follow them, none twice.
   * Returns the unsubscribe function.
   */
  subscribe(accountId: string, listener: EventListener, afterId?: number): () => void {
    const kept = afterId === undefined ? [] : this.transport.since(accountId, afterId);
    if (Array.isArray(kept)) {
      for (const e of kept) listener(e);
      return this.add(accountId, listener);
    }
    // Live events are held back until the kept ones are delivered, then those not among them follow.
    let held: EngineEvent[] | null = [];
    let lastId = afterId!;
    let cancelled = false;
    const deliver = (e: EngineEvent): void => {
      if (cancelled || e.id <= lastId) return;
      lastId = e.id;
      listener(e);
    };
    const remove = this.add(accountId, (e) => (held ? held.push(e) : deliver(e)));
    // Unsubscribed while the kept events are read: they are dropped when they come.
    const off = (): void => {
      cancelled = true;
      remove();
    };
    const goLive = (events: EngineEvent[]): void => {
      const waiting = held ?? [];
      held = null;
      for (const e of [...events, ...waiting]) deliver(e);
    };
    kept
      // Kept events that cannot be read: live from here, as with an id too old to resume.
      .then(goLive, () => goLive([]))
      // A listener that throws is removed, as in dispatch.
      .catch(() => off());
    return off;
  }

  /** Every account's events as they are delivered (for caches of a shared store). Returns the stop function. */
  observe(listener: EventListener): () => void {
    this.observers.add(listener);
    return () => void this.observers.delete(listener);
  }

  listenerCount(accountId?: string): number {
    if (accountId !== undefined) return this.listeners.get(accountId)?.size ?? 0;
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  private add(accountId: string, listener: EventListener): () => void {
    let set = this.listeners.get(accountId);
    if (!set) {
      set = new Set();
      this.listeners.set(accountId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(accountId) === set) this.listeners.delete(accountId);
    };
  }

  private dispatch(event: EngineEvent): void {
    for (const observer of [...this.observers]) {
      try {
        observer(event);
      } catch {
        this.observers.delete(observer);
      }
    }
    for (const listener of [...(this.listeners.get(event.accountId) ?? [])]) {
      try {
        listener(event);
      } catch {
        this.listeners.get(event.accountId)?.delete(listener);
      }
    }
  }
}
