import type { ApiClient, ApiSchemas } from './api-client.ts';
import { ApiError, NETWORK_ERROR } from './api-error.ts';
import { SseParser } from './sse-parser.ts';

/** An event's name and its payload (the JSON of its `data:` lines). */
export interface EventShape {
  event: string;
  data: unknown;
}

/**
 * The engine's events as the document's `EngineEvent` component (the event map)
 * describes them, keyed by the SSE `event:` name: narrowing on `event` types `data`.
 */
export type EngineEventShape = ApiSchemas['EngineEvent'] extends infer U
  ? U extends { type: infer T; data: infer D }
    ? { event: T; data: D }
    : never
  : never;

/** One received event, with the id it can be resumed after. */
export type ReceivedEvent<E extends EventShape = EventShape> = E & { id: string | undefined };

export interface FollowOptions<E extends EventShape = EventShape> {
  /** Finds the engine and authenticates; called again on every reconnect (the engine may have moved port). */
  connect: () => Promise<ApiClient>;
  /**
   * Each event whose data is JSON. The follower does not check payloads against
   * E: E is what the caller expects the engine to send (unknown by default).
   */
  onEvent: (event: ReceivedEvent<E>) => void;
  /** Connection state changes, for a human. */
  onStatus: (message: string) => void;
  /** The stream is open (the engine has subscribed it): events from now on will arrive. */
  onConnected?: (client: ApiClient) => void;
  signal: AbortSignal;
  /** No byte (not even a heartbeat) for this long means the connection is dead. Default 45 s (three heartbeats). */
  idleTimeoutMs?: number;
  /** First wait before reconnecting; doubled per failed attempt. Default 100 ms. */
  initialBackoffMs?: number;
  /** Longest wait between reconnect attempts. Default 2 s. */
  maxBackoffMs?: number;
  /**
   * Errors of `connect` worth retrying besides no answer and 5xx (the CLI adds
   * "no engine is running" while it restarts). Anything else, such as a 401, ends following.
   */
  isRetriable?: (error: unknown) => boolean;
}

/**
 * Follows `GET /api/events` until `signal` aborts, reconnecting whenever the
 * stream ends or the engine restarts, with a doubling backoff. Within one engine
 * run it resumes with Last-Event-ID; against a new run (event ids restart; the
 * client's `instance` says which run it talks to) it asks for everything after
 * 0, which is exactly what that run published while we were away.
 * The first connection's failure is thrown (no engine, bad token); later ones retry.
 */
export async function followEvents<E extends EventShape = EventShape>(opts: FollowOptions<E>): Promise<void> {
  const idleMs = opts.idleTimeoutMs ?? 45_000;
  const initialBackoff = opts.initialBackoffMs ?? 100;
  const maxBackoff = opts.maxBackoffMs ?? 2000;
  let instance: string | undefined;
  let lastEventId: string | undefined;
  let backoff = initialBackoff;
  let connectedOnce = false;
  let waitingSaid = false;

  while (!opts.signal.aborted) {
    let client: ApiClient;
    let stream: ReadableStream<Uint8Array>;
    const attempt = new AbortController();
    const onAbort = (): void => attempt.abort();
    opts.signal.addEventListener('abort', onAbort, { once: true });
    try {
      client = await opts.connect();
      if (instance !== undefined && client.instance !== instance) lastEventId = '0';
      stream = await client.openEvents(lastEventId, attempt.signal);
    } catch (e) {
      opts.signal.removeEventListener('abort', onAbort);
      if (opts.signal.aborted) return;
      if (!connectedOnce) throw e;
      if (!isRetriable(e, opts.isRetriable)) throw e;
      if (!waitingSaid) opts.onStatus('The engine is not answering; waiting for it to come back...');
      waitingSaid = true;
      await abortableSleep(backoff, opts.signal);
      backoff = Math.min(backoff * 2, maxBackoff);
      continue;
    }
    // Every connection after the first follows a drop, which was announced.
    if (connectedOnce) opts.onStatus(`Reconnected to ${client.baseUrl}.`);
    connectedOnce = true;
    opts.onConnected?.(client);
    backoff = initialBackoff;
    instance = client.instance;

    const parser = new SseParser();
    const reader = stream.getReader();
    let idle = setTimeout(() => attempt.abort(), idleMs);
    try {
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        clearTimeout(idle);
        idle = setTimeout(() => attempt.abort(), idleMs);
        for (const msg of parser.push(decoder.decode(value, { stream: true }))) {
          lastEventId = msg.id ?? lastEventId;
          let data: unknown;
          try {
            data = JSON.parse(msg.data);
          } catch {
            continue; // every engine event is JSON; anything else is not one of them
          }
          opts.onEvent({ id: msg.id, event: msg.event, data } as ReceivedEvent<E>);
        }
      }
    } catch {
      // The stream broke (engine stopped, idle timeout, or our own abort).
    } finally {
      clearTimeout(idle);
      opts.signal.removeEventListener('abort', onAbort);
      reader.cancel().catch(() => undefined);
    }
    if (opts.signal.aborted) return;
    opts.onStatus('The event stream ended; reconnecting...');
    waitingSaid = true; // one announcement per outage, not one per attempt
    await abortableSleep(Math.min(parser.retryMs ?? backoff, maxBackoff), opts.signal);
  }
}

function isRetriable(e: unknown, extra: ((error: unknown) => boolean) | undefined): boolean {
  if (e instanceof ApiError && (e.code === NETWORK_ERROR || e.status >= 500)) return true;
  return extra?.(e) ?? false;
}

/**
 * Waits `ms`, or less when `signal` aborts first; never rejects, so a loop checks the
 * signal after it (here, and in `hookscope listen`'s retries).
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
