import { InvalidArgumentError, type Command } from 'commander';
import type { ApiClient } from '../../api-client/api-client.ts';
import { ApiError } from '../../api-client/api-error.ts';
import { followEvents, type EngineEventShape } from '../../api-client/event-follower.ts';
import { MAX_TIMEOUT_MS } from '../../api-client/shared.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import { parseDuration } from '../../config/durations.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, UsageError, type CliIO } from '../cli-output.ts';
import type { RetryDelays, StartPoint } from '../delivery-listener.ts';
import { EngineNotRunningError } from '../engine-not-running-error.ts';
import { resolveEngineTarget } from '../engine-target.ts';
import { listenJson, listenLine, type ListenReport } from '../listen-output.ts';
import { httpUrlArg, intArg } from '../option-parsers.ts';
import { EngineUnreachableError } from '../remote-engine-errors.ts';
import { colorsFor } from '../render.ts';
import { jsonWithEscapedControls, terminalSafe } from '../terminal-safe.ts';

interface ListenOptions extends ClientOptions {
  forwardTo: string;
  endpoint?: string[];
  resign?: boolean;
  since?: ParsedSince;
  /** False with --no-catch-up. */
  catchUp: boolean;
  timeout: number;
}

/** `--since` as given: a log id, or a duration turned into a time when the run starts. */
type ParsedSince = { afterId: string } | { ago: number };

/** What the command reaches outside itself; tests of the function pass small delays and a fixed clock. */
export interface ListenDeps {
  now?: () => number;
  /** A refused or failing target: 1 s, doubling, at most 30 s. */
  retry?: RetryDelays;
  /** The engine not answering a request of the listener: 250 ms, doubling, at most 5 s. */
  engineRetry?: RetryDelays;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export function registerListen(program: Command, io: CliIO, run: RunAction): void {
  withClientOptions(
    program
      .command('listen')
      .description(
        'Send each delivery, as it arrives, from this computer to a local URL (a dev server the engine cannot reach); ' +
          'catches up on what arrived while it was away; until Ctrl+C',
      )
      .requiredOption(
        '--forward-to <url>',
        'where to send each delivery: its sub-path below the endpoint and its query are appended (e.g. http://localhost:3000/webhooks)',
        forwardToArg,
      )
      .option(
        '--endpoint <id>',
        "only this endpoint's deliveries; repeat for several (default: all of the account's endpoints)",
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      )
      .option(
        '--resign',
        "sign each delivery again with its endpoint's scheme and secret and a fresh timestamp, so a dev server " +
          'checking Stripe, GitHub, Standard Webhooks, ... signatures with the same secret accepts it',
      )
      .option(
        '--since <duration|logId>',
        'catch up from this long ago (10m, 2h, 1d) or after this log (log_...), instead of where the last run stopped',
        sinceArg,
      )
      .option('--no-catch-up', 'send only deliveries arriving from now on, not those that arrived while away')
      .option(
        '--timeout <ms>',
        'how long the target may take to answer, in ms',
        intArg(1, MAX_TIMEOUT_MS),
        DEFAULT_TIMEOUT_MS,
      ),
  )
    .addHelpText(
      'after',
      `
Each delivery is sent with its method, sub-path, query, headers (without hop-by-hop
ones) and exact body bytes, and printed as one line: the time it arrived, its event
type, method and path, then the target's status and time, or the error. A 4xx from the
target counts as sent (your server answered). No answer, a timeout or a 5xx is retried
(1 s, doubling, at most 30 s) and reported on each attempt; the endpoint's later
deliveries wait behind it. Deliveries the engine refused (signature check) are not sent.

Catch-up: the last delivery sent per engine and endpoint is kept in listen-state.json
in the data directory. On start and after every reconnect, what arrived after it is sent
first, in the order it arrived at the engine, then live ones; none twice. A first run
starts with live ones. When that delivery is no longer stored (deleted, or evicted by
retention), the catch-up says so and starts from the endpoint's oldest stored delivery.
--since 2h sends the stored deliveries received in the last 2 hours, in arrival order.

With --json, each line is one JSON object: "type" is listening, connection, notice,
forwarded, retry or skipped, with the delivery's logId, endpointId, eventType, method, path, query,
receivedAt and catchUp, and the outcome's status, durationMs, attempt, retryInMs, error
or reason.`,
    )
    .action((opts: ListenOptions) => run(() => listen(opts, io)));
}

/** An absolute http(s) URL without credentials (the engine refuses those as a target). */
function forwardToArg(value: string): string {
  const url = new URL(httpUrlArg(value));
  if (url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError('It must not carry a user name or password.');
  }
  return value;
}

function sinceArg(value: string): ParsedSince {
  if (/^log_[0-9a-z]+$/.test(value)) return { afterId: value };
  try {
    return { ago: parseDuration(value, '--since') };
  } catch {
    throw new InvalidArgumentError('It must be a duration such as 10m, 2h or 1d, or a log id (log_...).');
  }
}

export async function listen(
  opts: ListenOptions,
  io: CliIO,
  signal?: AbortSignal,
  deps: ListenDeps = {},
): Promise<number> {
  if (opts.since !== undefined && !opts.catchUp) {
    throw new UsageError('--since chooses where the catch-up starts; it cannot be used with --no-catch-up.');
  }
  const c = colorsFor(io);
  const safe = terminalSafe(io.isTTY);
  const print = (r: ListenReport): void => {
    if (opts.json) io.out(jsonWithEscapedControls(JSON.stringify(listenJson(r))));
    // Without --json, stdout carries the deliveries (one line each) and stderr the rest, as `tail` does.
    else if (r.type === 'listening' || r.type === 'connection' || r.type === 'notice') io.err(listenLine(r, c, safe));
    else io.out(listenLine(r, c, safe));
  };
  // Loaded on first use, as connect() loads the API client: --help needs neither (nor zod, which the state file's check brings).
  const [{ DeliveryListener }, { ListenState }] = await Promise.all([
    import('../delivery-listener.ts'),
    import('../listen-state.ts'),
  ]);
  const target = resolveEngineTarget({ engine: opts.engine, token: opts.token, user: opts.user, env: io.env });
  const state = new ListenState(
    resolveDataDir({ flag: opts.dataDir, env: io.env }),
    target.kind === 'remote' ? target.url : 'local',
  );
  const now = deps.now ?? Date.now;
  const since: StartPoint | undefined =
    opts.since === undefined ? undefined : 'afterId' in opts.since ? opts.since : { sinceMs: now() - opts.since.ago };
  const chosen = opts.endpoint ? [...new Set(opts.endpoint)] : null;

  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  signal?.addEventListener('abort', onSignal, { once: true });
  let fatal: { error: unknown } | undefined;
  const listener = new DeliveryListener({
    targetUrl: opts.forwardTo,
    resign: opts.resign === true,
    catchUp: opts.catchUp,
    since,
    timeoutMs: opts.timeout,
    retry: deps.retry ?? { initialMs: 1000, maxMs: 30_000 },
    engineRetry: deps.engineRetry ?? { initialMs: 250, maxMs: 5000 },
    places: state,
    report: print,
    signal: stop.signal,
    isEngineDown: isEngineAway,
    reconnect: () => connect(opts, io),
    onFatal: (error) => {
      fatal ??= { error };
      stop.abort();
    },
  });

  let endpoints: string[] = [];
  let connections = 0;
  try {
    await followEvents<EngineEventShape>({
      signal: stop.signal,
      connect: async () => {
        const api = await connect(opts, io);
        endpoints = await listenedEndpoints(api, chosen, connections === 0);
        await listener.prepare(api, endpoints);
        return api;
      },
      // Between an engine's stop and its restart there is no runtime.json, or no answer at its URL: wait for it.
      isRetriable: isEngineAway,
      onConnected: (api) => {
        if (connections++ === 0) {
          print({
            type: 'listening',
            engine: api.baseUrl,
            endpoints,
            all: chosen === null,
            target: opts.forwardTo,
            resign: opts.resign === true,
          });
        }
        listener.connected(api, endpoints);
      },
      onStatus: (message) => print({ type: 'connection', message }),
      onEvent: (e) => {
        if (e.event !== 'log.created') return;
        if (chosen !== null && !chosen.includes(e.data.endpointId)) return;
        listener.delivered(e.data);
      },
    });
  } finally {
    stop.abort();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    signal?.removeEventListener('abort', onSignal);
    await listener.settled();
    await state.flushed();
  }
  if (fatal) throw fatal.error;
  return EXIT.ok;
}

const isEngineAway = (e: unknown): boolean => e instanceof EngineNotRunningError || e instanceof EngineUnreachableError;

/** The endpoints listened to: those named (checked on the first connection), or all of the account's now. */
async function listenedEndpoints(api: ApiClient, chosen: string[] | null, first: boolean): Promise<string[]> {
  if (chosen === null) return (await api.get('/api/endpoints')).endpoints.map((e) => e.id);
  if (first) {
    for (const endpointId of chosen) {
      try {
        await api.get('/api/endpoints/{endpointId}', { params: { path: { endpointId } } });
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) {
          throw new UsageError(
            `--endpoint ${endpointId}: no such endpoint on ${api.baseUrl} for this account (\`hookscope endpoints\` lists them).`,
          );
        }
        throw e;
      }
    }
  }
  return chosen;
}
