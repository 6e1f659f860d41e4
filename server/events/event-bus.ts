/**
 * What the engine tells live clients (the UI and `hookscope tail`) over
 * `GET /api/events`. Every event belongs to one account and only reaches it.
 */
export type EngineEventType =
  'log.created' | 'log.updated' | 'replay.completed' | 'forward.updated' | 'endpoint.changed' | 'tunnel.status';

export interface EngineEvent {
  /** Increasing per engine run; the SSE `id:` field, used for `Last-Event-ID` resume. */
  id: number;
  accountId: string;
  type: EngineEventType;
  data: unknown;
  at: number;
}

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

  publish(accountId: string, type: EngineEventType, data: unknown): EngineEvent {
    const event: EngineEvent = { id: this.nextId++, accountId, type, data, at: this.now() };
    this.recent.push(event);
    if (this.recent.length > this.historySize) this.recent.shift();
    for (const listener of [...(this.listeners.get(accountId) ?? [])]) {
      try {
        listener(event);
      } catch {
        this.listeners.get(accountId)?.delete(listener);
      }
    }
    return event;
  }

  /** Publishes to every account that has listeners or history (tunnel status is engine-wide). */
  broadcast(type: EngineEventType, data: unknown, accountIds: Iterable<string>): void {
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
