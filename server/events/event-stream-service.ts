import type { ServerResponse } from 'node:http';
import { AppError } from '../errors/app-errors.ts';
import type { EventBus } from './event-bus.ts';
import { SseWriter } from './sse-writer.ts';

export interface EventStreamOptions {
  bus: EventBus;
  /** Interval of the `: heartbeat` comment (15 s by default; tests shorten it). */
  heartbeatMs: number;
  /** The `retry:` delay suggested to clients for reconnecting. */
  retryMs?: number;
}

/**
 * Serves `GET /api/events`: one SSE stream per client, subscribed to its
 * account's events on the bus. Each stream owns exactly one bus listener and
 * one timer, both released when the client goes away or the engine stops.
 */
export class EventStreamService {
  private readonly streams = new Set<() => void>();
  private closing = false;

  constructor(private readonly opts: EventStreamOptions) {}

  /** Starts streaming to `res`; with `afterId`, the kept events after it are sent first. */
  stream(accountId: string, res: ServerResponse, afterId?: number): void {
    if (this.closing) throw new AppError(503, 'ENGINE_STOPPING', 'The engine is stopping; reconnect in a moment.');
    const sse = new SseWriter(res);
    sse.open(this.opts.retryMs ?? 2000);

    let stopped = false;
    let unsubscribe: (() => void) | null = null;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      unsubscribe?.();
      this.streams.delete(stop);
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

  get openStreams(): number {
    return this.streams.size;
  }

  /** Ends every stream (clients reconnect to the next engine) and refuses new ones. */
  close(): void {
    this.closing = true;
    for (const stop of [...this.streams]) stop();
  }
}
