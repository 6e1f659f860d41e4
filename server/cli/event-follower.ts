import { abortableDelay } from '../support/abortable-delay.ts';
import { ApiError, EngineNotRunningError, type ApiClient } from './api-client.ts';
import { SseParser, type SseMessage } from './sse-parser.ts';

export interface FollowOptions {
  /** Finds the engine and mints a token; called again on every reconnect (the engine may have moved port). */
  connect: () => Promise<ApiClient>;
  onEvent: (event: SseMessage) => void;
  /** Connection state changes, for a human (stderr). */
  onStatus: (message: string) => void;
  /** The stream is open (the engine has subscribed it): events from now on will arrive. */
  onConnected?: (client: ApiClient) => void;
  signal: AbortSignal;
  /** No byte (not even a heartbeat) for this long means the connection is dead. Default 45 s (three heartbeats). */
  idleTimeoutMs?: number;
  /** Longest wait between reconnect attempts. */
  maxBackoffMs?: number;
}

/**
 * Follows `GET /api/events` until `signal` aborts, reconnecting whenever the
 * stream ends or the engine restarts. Within one engine run it resumes with
 * Last-Event-ID; against a new run (event ids restart) it asks for everything
 * after 0, which is exactly what that run published while we were away.
 * The first connection's failure is thrown (no engine, bad token); later ones retry.
 */
export async function followEvents(opts: FollowOptions): Promise<void> {
  const idleMs = opts.idleTimeoutMs ?? 45_000;
  const maxBackoff = opts.maxBackoffMs ?? 2000;
  let instance: string | undefined;
  let lastEventId: string | undefined;
  let backoff = 100;
  let connectedOnce = false;
  let waitingSaid = false;

  while (!opts.signal.aborted) {
    let client: ApiClient;
    let res: Response;
    const attempt = new AbortController();
    const onAbort = (): void => attempt.abort();
    opts.signal.addEventListener('abort', onAbort, { once: true });
    try {
      client = await opts.connect();
      if (instance !== undefined && client.instance !== instance) lastEventId = '0';
      res = await client.openEvents(lastEventId, attempt.signal);
    } catch (e) {
      opts.signal.removeEventListener('abort', onAbort);
      if (opts.signal.aborted) return;
      if (!connectedOnce) throw e;
      const retriable = e instanceof EngineNotRunningError || (e instanceof ApiError && e.status >= 500);
      if (!retriable) throw e;
      if (!waitingSaid) opts.onStatus('The engine is not answering; waiting for it to come back...');
      waitingSaid = true;
      await abortableDelay(backoff, opts.signal);
      backoff = Math.min(backoff * 2, maxBackoff);
      continue;
    }
    // Every connection after the first follows a drop, which was announced.
    if (connectedOnce) opts.onStatus(`Reconnected to ${client.baseUrl}.`);
    connectedOnce = true;
    opts.onConnected?.(client);
    backoff = 100;
    instance = client.instance;

    const parser = new SseParser();
    let idle = setTimeout(() => attempt.abort(), idleMs);
    try {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(idle);
        idle = setTimeout(() => attempt.abort(), idleMs);
        for (const msg of parser.push(decoder.decode(chunk, { stream: true }))) {
          lastEventId = msg.id ?? lastEventId;
          opts.onEvent(msg);
        }
      }
    } catch {
      // The stream broke (engine stopped, idle timeout, or our own abort).
    } finally {
      clearTimeout(idle);
      opts.signal.removeEventListener('abort', onAbort);
    }
    if (opts.signal.aborted) return;
    opts.onStatus('The event stream ended; reconnecting...');
    waitingSaid = true; // one announcement per outage, not one per attempt
    await abortableDelay(Math.min(parser.retryMs ?? backoff, maxBackoff), opts.signal);
  }
}
