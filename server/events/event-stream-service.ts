import type { ServerResponse } from 'node:http';
import { AppError, TooManyRequestsError } from '../errors/app-errors.ts';
import type { EventBus } from './event-bus.ts';
import { SseWriter } from './sse-writer.ts';

export interface EventStreamOptions {
  bus: EventBus;
  /** Interval of the `: heartbeat` comment (15 s by default; tests shorten it). */
  heartbeatMs: number;
  /** The `retry:` delay suggested to clients for reconnecting. */
  retryMs?: number;
  /** Open streams one account may hold at once (`maxEventStreamsPerAccount`). */
  maxPerAccount: number;
}

/** What a client refused for too many streams is told to wait: a stream frees its place when it closes. */
const FULL_RETRY_AFTER_S = 5;

/**
 * Serves `GET /api/events`: one SSE stream per client, subscribed to its
 * account's events on the bus. Each stream owns exactly one bus listener and
 * one timer, both released when the client goes away or the engine stops.
 * An account holds at most `maxPerAccount` streams at once: each costs a socket,
 * a timer and a copy of every event, and a client that reconnects without
 * closing (a loop in a script, a page opened many times) must not exhaust them.
 */
export class EventStreamService {
  private readonly streams = new Set<() => void>();
  private readonly perAccount = new Map<string, number>();
  private closing = false;

  constructor(private readonly opts: EventStreamOptions) {}

  /** Starts streaming to `res`; with `afterId`, the kept events after it are sent first. */
  stream(accountId: string, res: ServerResponse, afterId?: number): void {
    if (this.closing) throw new AppError(503, 'ENGINE_STOPPING', 'The engine is stopping; reconnect in a moment.');
    const held = this.perAccount.get(accountId) ?? 0;
    if (held >= this.opts.maxPerAccount) {
      throw new TooManyRequestsError(
        `This account already has ${held} open event streams, the most allowed (maxEventStreamsPerAccount); ` +
          'close one (another tab or `hookscope tail`) and try again.',
        FULL_RETRY_AFTER_S,
        'TOO_MANY_EVENT_STREAMS',
      );
    }
    const sse = new SseWriter(res);
    sse.open(this.opts.retryMs ?? 2000);
    this.perAccount.set(accountId, held + 1);

    let stopped = false;
    let unsubscribe: (() => void) | null = null;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      unsubscribe?.();
      this.streams.delete(stop);
      this.release(accountId);
      sse.end();
    };
    const heartbeat = setInterval(() => {
      if (!sse.comment('heartbeat')) stop();
    }, this.opts.heartbeatMs);
    heartbeat.unref();
    this.streams.add(stop);
    res.on('close', stop);

    // subscribe() replays synchronously before it returns, so a write failing
    // during the replay must still release the listener it then adds.
    const off = this.opts.bus.subscribe(
      accountId,
      (e) => {
        if (!sse.event(e.id, e.type, e.data)) stop();
      },
      afterId,
    );
    if (stopped) off();
    else unsubscribe = off;
  }

  private release(accountId: string): void {
    const held = (this.perAccount.get(accountId) ?? 1) - 1;
    if (held > 0) this.perAccount.set(accountId, held);
    else this.perAccount.delete(accountId);
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Ends every stream (clients reconnect to the next engine) and refuses new ones. */
  close(): void {
    this.closing = true;
    for (const stop of [...this.streams]) stop();
  }
}
