import type { EngineEventType, EventPayload } from './event-map.ts';

/**
 * What the engine tells live clients (the UI and `hookscope tail`) over
 * `GET /api/events`: one event of type `K`. Every event belongs to one account
 * and only reaches it.
 */
export interface EngineEventOf<K extends EngineEventType> {
  /** Increasing per engine run; the SSE `id:` field, used for `Last-Event-ID` resume. */
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
  /** How many recent events are kept for `Last-Event-ID` resume. */
  historySize?: number;
  now?: () => number;
}

/**
 * An in-process publish/subscribe hub, one per engine (no module state). A
 * listener that throws is removed rather than allowed to break publishers: the
 * receiver publishes on its hot path and must never fail because a client did.
 */
export class EventBus {
  private nextId = 1;
  private readonly recent: EngineEvent[] = [];
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly historySize: number;
  private readonly now: () => number;

  constructor(opts: EventBusOptions = {}) {
    this.historySize = opts.historySize ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** Publishes to one account; `data` must match the event map's schema for `type`. */
  publish<K extends EngineEventType>(accountId: string, type: K, data: EventPayload<K>): EngineEventOf<K> {
    const typed: EngineEventOf<K> = { id: this.nextId++, accountId, type, data, at: this.now() };
    // TypeScript cannot tell that EngineEventOf<K> for a generic K is a member of the union.
    const event = typed as EngineEvent;
    this.recent.push(event);
    if (this.recent.length > this.historySize) this.recent.shift();
    for (const listener of [...(this.listeners.get(accountId) ?? [])]) {
      try {
        listener(event);
      } catch {
        this.listeners.get(accountId)?.delete(listener);
      }
    }
    return typed;
  }

  /** Publishes to every account that has listeners or history (tunnel status is engine-wide). */
  broadcast<K extends EngineEventType>(type: K, data: EventPayload<K>, accountIds: Iterable<string>): void {
    for (const id of accountIds) this.publish(id, type, data);
  }

  /**
   * Subscribes an account's listener. With `afterId`, the kept events after it are
   * delivered first (an empty replay when that id is too old: the client refetches).
   * Returns the unsubscribe function.
   */
  subscribe(accountId: string, listener: EventListener, afterId?: number): () => void {
    if (afterId !== undefined) {
      for (const e of this.recent) if (e.id > afterId && e.accountId === accountId) listener(e);
    }
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

  listenerCount(accountId?: string): number {
    if (accountId !== undefined) return this.listeners.get(accountId)?.size ?? 0;
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }
}
