import pc from 'picocolors';
import { createApiClient, type ApiClient, type ApiSchemas } from '../server/api-client/api-client.ts';
import { ApiError, NETWORK_ERROR } from '../server/api-client/api-error.ts';
import { abortableSleep, followEvents, type EngineEventShape } from '../server/api-client/event-follower.ts';
import { DeliveryListener, retryDelay, type PlaceStore, type RetryDelays } from '../server/cli/delivery-listener.ts';
import { listenLine, type ListenReport } from '../server/cli/listen-output.ts';
import { escapeControls } from '../server/cli/terminal-safe.ts';
import type { SEND_FAILURES, SendInput, SendResult } from '../server/replay/http-sender.ts';
import { builtRequestRefusal, localSendResult } from './local-send.ts';

/** What a running forward is doing now (`stopped` is the manager's, once it has ended). */
export type RunState = 'catching-up' | 'live' | 'retrying';

/** A token the team server refuses (401): only a new sign-in from the page helps. */
export class SignInExpiredError extends Error {
  override name = 'SignInExpiredError';
  constructor() {
    super('Sign-in expired: start it again.');
  }
}

export interface ForwardRunSpec {
  teamUrl: string;
  endpointId: string;
  /** On this computer (forward-input.ts checked it); each delivery's sub-path and query are joined below it. */
  targetUrl: string;
  token: string;
  /** Where this team server's catch-up places are kept (server/cli/listen-state.ts). */
  places: PlaceStore & { flushed(): Promise<void> };
}

export interface ForwardRunEvents {
  state(state: RunState): void;
  /** A line for the status: the listener's line for a delivery, or what happens to the connection. */
  line(text: string): void;
  /** The run has ended: null when stopped, else why (SignInExpiredError for a refused token). */
  ended(error: unknown): void;
  /** A failure that does not stop forwarding (an attempt the team server did not record), for the log. */
  warn(err: unknown, message: string): void;
}

export interface ForwardRunDeps {
  send: (input: SendInput) => Promise<SendResult>;
  /** Waits between attempts at a target that refused or failed. */
  retry: RetryDelays;
  /** Waits while the team server does not answer (a request of the listener, or the event stream). */
  engineRetry: RetryDelays;
  timeoutMs: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface ForwardRun {
  /** Stops forwarding; resolves once nothing more is sent and the places are written. */
  stop(): Promise<void>;
}

type LogSummary = ApiSchemas['LogSummary'];
type Outgoing = ApiSchemas['OutgoingRequest'];

// The status line is plain text in the page (React escapes it): no colour, control characters made visible.
const PLAIN = pc.createColors(false);

const isRefused = (e: unknown): boolean => e instanceof ApiError && e.status === 401;
const isAway = (e: unknown): boolean => e instanceof ApiError && (e.code === NETWORK_ERROR || e.status >= 500);

/**
 * fetch, whose answer (the event stream above all) is let go of as soon as the run stops. The event follower
 * aborts its request's signal, but Node's fetch did not always pass that abort on (undici links a Request's
 * signal to the caller's through a weak reference, which garbage collection can drop), so a stopped forward
 * could keep its event stream open until the server ended it (seen under Playwright: ~50 s). The body is
 * piped through a stream that the run's own signal, held here, ends.
 */
async function fetchUntil(request: Request, stopped: AbortSignal): Promise<Response> {
  const response = await fetch(request);
  if (response.body === null) return response;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  response.body.pipeTo(writable, { signal: stopped }).catch(() => undefined);
  return new Response(readable, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * One endpoint's "Forward from this computer": `hookscope listen --forward-to`'s DeliveryListener in the main
 * process, with the main process's own token. The team server's event stream brings each delivery; the
 * listener catches up from its place, sends in arrival order, retries a refusing target; each attempt is
 * reported to the team server (`POST /api/replay/:id/sent`, trigger client), so the delivery's history says
 * "From this computer". What the team server builds is sent only to the chosen target's origin on this
 * computer (local-send.ts), so a team server cannot point the laptop anywhere else.
 */
export function startForwardRun(spec: ForwardRunSpec, events: ForwardRunEvents, deps: ForwardRunDeps): ForwardRun {
  const stop = new AbortController();
  const sleep = deps.sleep ?? abortableSleep;
  const target = new URL(spec.targetUrl);
  const client = (): ApiClient =>
    createApiClient({ baseUrl: spec.teamUrl, token: spec.token, fetch: (request) => fetchUntil(request, stop.signal) });
  let fatal: unknown = null;

  const report = async (log: LogSummary, request: Outgoing, result: SendResult): Promise<void> => {
    const r = localSendResult(result);
    try {
      await client().post('/api/replay/{webhookLogId}/sent', {
        params: { path: { webhookLogId: log.id } },
        body: {
          targetUrl: request.url,
          method: request.method,
          requestHeaders: request.headers,
          edited: request.edited,
          status: r.status,
          responseTime: r.responseTime,
          responseHeaders: r.responseHeaders,
          responseBody: r.responseBody,
          responseTruncated: r.responseTruncated,
          // http-sender's codes are the ones `sent` takes (SEND_FAILURES).
          error: r.error && { code: r.error.code as (typeof SEND_FAILURES)[number], message: r.error.message },
        },
      });
    } catch (err) {
      // Sent is sent: the forward goes on; only the delivery's history misses this attempt.
      events.warn(err, 'an attempt forwarded from this computer was not recorded by the team server');
    }
  };

  const listener = new DeliveryListener({
    targetUrl: spec.targetUrl,
    resign: false,
    catchUp: true,
    timeoutMs: deps.timeoutMs,
    retry: deps.retry,
    engineRetry: deps.engineRetry,
    places: spec.places,
    report: (r: ListenReport) => {
      if (r.type === 'retry') events.state('retrying');
      else if (r.type === 'forwarded' || r.type === 'skipped') events.state(r.catchUp ? 'catching-up' : 'live');
      if (r.type !== 'listening') events.line(listenLine(r, PLAIN, escapeControls));
    },
    signal: stop.signal,
    isEngineDown: () => false,
    // The token came from a sign-in in the page; the main process cannot renew it by itself.
    reconnect: () => Promise.reject(new SignInExpiredError()),
    onFatal: (e) => {
      fatal ??= e;
      stop.abort();
    },
    onAttempt: report,
    send: (input) => {
      const refusal =
        input.url.origin === target.origin
          ? builtRequestRefusal(input)
          : `The team server built a request to ${input.url.origin}, not to ${target.origin}; nothing was sent.`;
      return refusal ? Promise.reject(new Error(refusal)) : deps.send(input);
    },
    sleep,
  });

  const follow = (): Promise<void> =>
    followEvents<EngineEventShape>({
      signal: stop.signal,
      connect: async () => {
        const api = client();
        await listener.prepare(api, [spec.endpointId]);
        return api;
      },
      onConnected: (api) => {
        events.state('catching-up');
        listener.connected(api, [spec.endpointId]);
        // The catch-up, and the live deliveries queued behind it, are done: live from now on.
        void listener.settled().then(() => {
          if (!stop.signal.aborted) events.state('live');
        });
      },
      onStatus: (message) => events.line(message.replace('The engine', 'The team server')),
      onEvent: (e) => {
        if (e.event === 'log.created' && e.data.endpointId === spec.endpointId) listener.delivered(e.data);
      },
      initialBackoffMs: deps.engineRetry.initialMs,
      maxBackoffMs: deps.engineRetry.maxMs,
    });

  const done = (async () => {
    // followEvents throws its first connection's failure: at launch the laptop may still be offline, so wait.
    for (let attempt = 1; !stop.signal.aborted; attempt++) {
      try {
        await follow();
      } catch (e) {
        if (stop.signal.aborted) break;
        if (isAway(e)) {
          if (attempt === 1) events.line(`The team server at ${spec.teamUrl} is not answering; waiting for it...`);
          await sleep(retryDelay(attempt, deps.engineRetry), stop.signal);
          continue;
        }
        fatal ??= isRefused(e) ? new SignInExpiredError() : e;
      }
      break;
    }
    stop.abort();
    await listener.settled();
    await spec.places.flushed();
    events.ended(fatal);
  })();

  return {
    stop: async () => {
      stop.abort();
      await done;
    },
  };
}
