import { join } from 'node:path';
import { appRoot } from '../support/app-root.ts';
import { accountsFeature } from '../accounts/accounts-feature.ts';
import { accountIdFor, LOCAL_ACCOUNT } from '../auth/account-id.ts';
import { Authenticator } from '../auth/authenticator.ts';
import { TokenService } from '../auth/token-service.ts';
import type { EngineConfig } from '../config/config.ts';
import { compareFeature } from '../compare/compare-feature.ts';
import { diagnoseFeature } from '../diagnose/diagnose-feature.ts';
import { endpointsFeature } from '../endpoints/endpoints-feature.ts';
import { EventBus } from '../events/event-bus.ts';
import { EVENT_SCHEMAS } from '../events/event-map.ts';
import { eventsFeature } from '../events/events-feature.ts';
import { exportFeature } from '../export/export-feature.ts';
import { SOLE_INSTANCE, type InstanceRegistry } from '../instances/instance-registry.ts';
import { createApiApp } from '../http/api-app.ts';
import { startListeners, type RunningListeners } from '../http/listeners.ts';
import { mountedRoutes, type MountedRoute } from '../http/mounted-routes.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../http/openapi.ts';
import { systemRoutes } from '../http/system-routes.ts';
import { logsFeature } from '../logs/logs-feature.ts';
import type { Explainable } from '../logs/logs-service.ts';
import { metricsFeature } from '../metrics/metrics-feature.ts';
import { receiverFeature } from '../receiver/receiver-feature.ts';
import { remediationFeature } from '../remediation/remediation-feature.ts';
import { replayFeature } from '../replay/replay-feature.ts';
import type { ReplayRecord } from '../replay/replay-types.ts';
import { sessionFeature } from '../session/session-feature.ts';
import { LiveSettings } from '../settings/live-settings.ts';
import { settingsFeature } from '../settings/settings-feature.ts';
import { shareFeature } from '../share/share-feature.ts';
import { BaseUrls } from '../support/base-urls.ts';
import { isoTime, systemClock, type Clock } from '../support/clock.ts';
import { IdGenerator } from '../support/ids.ts';
import { openEngineLog, type EngineLog, type Logger } from '../support/logger.ts';
import { faultReporter } from '../support/logger-faults.ts';
import { cryptoRandom, type Random } from '../support/random.ts';
import type { Scheduler } from '../support/scheduler.ts';
import { readVersion } from '../support/version.ts';
import { tunnelFeature } from '../tunnel/tunnel-feature.ts';
import type { TunnelService } from '../tunnel/tunnel-service.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { describeModeChanges, tightenDataDir } from './data-dir-permissions.ts';
import { listed, migrationsOf, type Feature } from './feature.ts';
import { removeRuntimeFile, writeRuntimeFile } from './runtime-file.ts';
import { buildBackend } from './build-backend.ts';

export interface EngineDeps {
  clock?: Clock;
  random?: Random;
  /** The forwarder's timers: retries, lease renewals, scans (tests stop one to stand for a dead instance). */
  forwardScheduler?: Scheduler;
  /**
   * Where the engine logs (start, stop, checkpoints, tunnel states, every fault
   * with its error id). Default: its own JSON-lines file, `<dataDir>/logs/engine.log`,
   * closed on stop; a logger passed here belongs to the caller.
   */
  logger?: Logger;
  /** Also told about every unexpected error, after it is logged; never sent to a client. */
  onError?: (err: unknown) => void;
  /** One-line notices for the operator (stderr by default), e.g. permissions tightened at start. */
  onNotice?: (message: string) => void;
  /** The built UI served at the API address (default: this checkout's renderer/dist; null: none). */
  rendererDir?: string | null;
}

const DEFAULT_RENDERER_DIR = join(appRoot(import.meta.url), 'renderer', 'dist');

export interface Engine {
  readonly config: EngineConfig;
  readonly apiUrl: string;
  readonly receiverUrl: string;
  readonly dataDir: string;
  /** Live events per account (what `/api/events` streams). */
  readonly events: EventBus;
  /** The public URL through localtunnel. */
  readonly tunnel: TunnelService;
  /** The live engines on this store (a team server's instances by heartbeat; embedded: this one). */
  readonly instances: InstanceRegistry;
  /** A token for the named account (default: the local one). */
  issueToken(accountName?: string, ttlMs?: number): Promise<string>;
  /** A one-time sign-in link to the UI for the owner account (the serve banner's `Open` line). */
  signInUrl(): Promise<string>;
  /** The routes mounted on the API app, as Express holds them (for the contract test). */
  mountedRoutes(): MountedRoute[];
  /** Snapshot the store now (also done periodically and on stop). */
  checkpoint(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The composition root: one engine for the desktop app, `hookscope serve` and
 * the tests. Each feature's factory builds its repositories, service and routes
 * from what it is given; the engine lists the features, each after those it
 * uses, and derives the rest from the list: the store's migrations, the API's
 * routes, the receiver's observers, the endpoint-deletion cascade and the order
 * of start-up and shutdown (see feature.ts).
 */
export async function startEngine(config: EngineConfig, deps: EngineDeps = {}): Promise<Engine> {
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? cryptoRandom;
  const onNotice = deps.onNotice ?? ((message: string) => console.error(`hookscope: ${message}`));
  const version = readVersion();

  // Creates the data directory, or makes an existing one private again (0700, files 0600).
  const tightened = await tightenDataDir(config.dataDir);
  if (tightened.length > 0) onNotice(describeModeChanges(config.dataDir, tightened));
  const releaseLock = await acquireDataDirLock(config.dataDir);
  let ownLog: EngineLog | null = null;
  try {
    ownLog = deps.logger ? null : await openEngineLog({ dataDir: config.dataDir });
  } catch (e) {
    await releaseLock();
    throw e;
  }
  const logger = deps.logger ?? ownLog!.logger;
  // The desktop app shows no stderr: the engine log keeps the notice too.
  if (tightened.length > 0) logger.warn({ changed: tightened.length }, describeModeChanges(config.dataDir, tightened));
  const ids = new IdGenerator(clock, random);
  const reportFault = faultReporter({ logger, newId: () => ids.opaque('err', 16), onFault: deps.onError });
  // Background work (store, forwarder, tunnel, observers) has no client to answer: the log is where its faults go.
  const onError = (err: unknown): void => void reportFault(err);
  const cleanups: (() => Promise<void>)[] = [releaseLock];
  // Undoes start-up in reverse; the engine's own log closes last, after `lastWords`.
  const unwind = async (lastWords?: () => void): Promise<void> => {
    for (const c of cleanups.reverse()) await c().catch(onError);
    lastWords?.();
    await ownLog?.close();
  };

  try {
    // The settings Settings may change while running; features read them through these functions at each use.
    const settings = new LiveSettings(config);
    // Repositories hold the backend from here; it opens below, once every feature has brought its migrations.
    const backend = await buildBackend(config, {
      clock,
      random,
      onError,
      logger,
      retention: () => settings.values.retention,
    });
    cleanups.push(() => backend.close());
    const { repos } = backend;
    const instances = backend.instances ?? SOLE_INSTANCE;
    const urls = new BaseUrls();
    urls.publicBase = config.publicBaseUrl;
    // In process, or the backend's shared event log (a team server: every instance's events on each).
    // Embedded: event ids restart with each run, so each run names its own id space.
    const runId = random.bytes(8).toString('hex');
    const events = new EventBus({ now: () => clock.now(), transport: backend.events, runId });
    const runtimeInfo = {
      pid: process.pid,
      apiUrl: '',
      receiverUrl: '',
      publicUrl: urls.publicBase,
      startedAt: isoTime(clock.now()),
      version: version.version,
    };
    const core = { clock, random, ids, urls, events, onError };

    // The features, each after those it uses. Everything below is derived from this list.
    const accounts = listed(
      accountsFeature({
        ...core,
        repo: repos.accounts,
        localAccount: { id: accountIdFor(LOCAL_ACCOUNT), name: LOCAL_ACCOUNT },
      }),
    );
    const session = listed(
      sessionFeature({
        ...core,
        repo: repos.sessions,
        codes: repos.signInCodes,
        sessionTtlMs: config.sessionTtlMs,
        owner: config.owner,
        publicUrl: config.publicBaseUrl,
        signInPerMinute: config.signInRateLimit.perMinute,
        trustProxy: config.trustProxy,
        // `tokens` exists once the store is open (below), before the first request.
        issueToken: (account, ttlMs) => tokens.issue(account.id, account.name, ttlMs),
        tokenTtlMs: config.tokenTtlMs,
      }),
    );
    const endpoints = listed(
      endpointsFeature({
        ...core,
        repo: repos.endpoints,
        housekeeping: (task) => backend.housekeeping(task),
        secretGraceMs: config.secretGraceMs,
      }),
    );
    // Logs and replay tell of what only remediation, built after them (it reads both), can judge: whether
    // a delivery can be explained. They reach it through these functions, first called once the engine is
    // wired (requests, a resumed forward queue), like the OpenAPI document's `routes` below.
    const explainable: Explainable = (accountId, log) => remediation.service.explainable(accountId, log);
    const replayRecorded = (r: ReplayRecord): Promise<void> => remediation.service.replayRecorded(r);
    const logs = listed(
      logsFeature({
        ...core,
        repo: repos.logs,
        background: backend.logsBackground,
        endpoints: endpoints.service,
        explainable,
      }),
    );
    const replay = listed(
      replayFeature({
        ...core,
        repo: repos.replays,
        queue: repos.forwardQueue,
        logs: logs.service,
        endpoints: endpoints.service,
        forwardPolicy: config.forward,
        forwardLanes: config.forwardLanes,
        scheduler: deps.forwardScheduler,
        recorded: replayRecorded,
      }),
    );
    const tunnel = listed(
      tunnelFeature({
        ...core,
        config: config.tunnel,
        dataDir: config.dataDir,
        accounts: accounts.service,
        owner: config.owner,
        logger,
        onPublicUrl: (publicUrl) => writeRuntimeFile(config.dataDir, { ...runtimeInfo, publicUrl }),
      }),
    );
    const share = listed(
      shareFeature({
        ...core,
        repo: repos.shares,
        logs: logs.service,
        // Asked at each create: the tunnel comes and goes.
        browserNotice: () => tunnel.service.status().browserNotice,
        reportFault,
      }),
    );
    const readers = { logs: logs.service, endpoints: endpoints.service, replays: replay.service };
    const exports = listed(
      exportFeature({ ...core, logs: logs.service, creator: { name: version.name, version: version.version } }),
    );
    const diagnose = listed(diagnoseFeature({ ...core, ...readers }));
    const remediation = listed(
      remediationFeature({
        ...core,
        ...readers,
        repo: repos.remediation,
        limits: {
          maxBodyBytes: config.maxBodyBytes,
          requestTimeoutMs: config.receiver.requestTimeoutMs,
          bodyIdleTimeoutMs: config.receiver.bodyIdleTimeoutMs,
          maxInFlightBodyBytes: config.receiver.maxInFlightBodyBytes,
        },
        secretGraceMs: config.secretGraceMs,
        llm: () => settings.values.llm,
      }),
    );
    const metrics = listed(metricsFeature({ ...core, ...readers, repo: repos.metrics }));
    const settingsScreen = listed(
      settingsFeature({
        settings,
        dataDir: config.dataDir,
        tunnel: tunnel.service,
        accounts: accounts.service,
        events,
        owner: config.owner,
        shared: backend.sharedSettings ?? null,
        pollMs: config.settingsPollMs,
        clock,
        onError,
      }),
    );
    const live = listed(
      eventsFeature({
        bus: events,
        logs: logs.service,
        heartbeatMs: config.sseHeartbeatMs,
        maxStreamsPerAccount: config.maxEventStreamsPerAccount,
      }),
    );
    let openapi: OpenApiDocument | null = null;
    // The document describes every route, its own included, so it is built on first request.
    const system = listed({
      name: 'system',
      routes: systemRoutes(
        version,
        () => events.idSpace,
        () => (openapi ??= buildOpenApiDocument(routes, version.version, EVENT_SCHEMAS)),
      ),
    });
    const others = [
      system,
      accounts,
      session,
      endpoints,
      logs,
      replay,
      tunnel,
      share,
      exports,
      listed(compareFeature({ logs: logs.service })),
      diagnose,
      remediation,
      metrics,
      settingsScreen,
      live,
    ];
    // Last: it takes every other feature's observers.
    const receiver = listed(
      receiverFeature({
        ...core,
        endpoints: endpoints.service,
        logs: logs.service,
        config: config.receiver,
        rateLimit: () => settings.values.rateLimit,
        instances,
        maxBodyBytes: config.maxBodyBytes,
        trustProxy: config.trustProxy,
        observers: others.flatMap((f: Feature) => f.observers ?? []),
        reportFault,
      }),
    );
    const features: readonly Feature[] = [...others, receiver];
    const routes = features.flatMap((f) => f.routes ?? []);
    endpoints.dependents.set(features);

    await backend.open(migrationsOf(features));
    const tokens = new TokenService({ key: await backend.signingKey(), clock });
    for (const f of features) {
      await f.start?.();
      if (f.stop) cleanups.push(() => f.stop!());
    }

    const apiApp = createApiApp({
      routes,
      auth: new Authenticator(tokens, accounts.service, session.service),
      reportFault,
      rendererDir: deps.rendererDir === undefined ? DEFAULT_RENDERER_DIR : deps.rendererDir,
    });
    const listeners: RunningListeners = await startListeners({
      apiHost: config.apiHost,
      apiPort: config.apiPort,
      receiverHost: config.receiverHost,
      receiverPort: config.receiverPort,
      publicUrl: config.publicBaseUrl,
      apiApp,
      receiver: (req, res, door) => receiver.service.handle(req, res, door),
      share: share.page,
      receiverTimeouts: {
        headersTimeoutMs: config.receiver.headersTimeoutMs,
        requestTimeoutMs: config.receiver.requestTimeoutMs,
      },
    });
    cleanups.push(() => listeners.close());
    urls.api = listeners.apiUrl;
    urls.receiver = listeners.receiverUrl;

    runtimeInfo.apiUrl = listeners.apiUrl;
    runtimeInfo.receiverUrl = listeners.receiverUrl;
    await writeRuntimeFile(config.dataDir, runtimeInfo);
    cleanups.push(() => removeRuntimeFile(config.dataDir));
    const at = { apiUrl: listeners.apiUrl, receiverUrl: listeners.receiverUrl, tunnelUrl: listeners.tunnelUrl };
    for (const f of features) {
      await f.online?.(at);
      if (f.offline) cleanups.push(() => f.offline!());
    }
    logger.info(
      {
        version: version.version,
        apiUrl: listeners.apiUrl,
        receiverUrl: listeners.receiverUrl,
        apiPort: Number(new URL(listeners.apiUrl).port),
        receiverPort: Number(new URL(listeners.receiverUrl).port),
        dataDir: config.dataDir,
        sync: config.durability.sync,
        tunnel: config.tunnel.enabled,
        storage: backend.description,
      },
      'engine started',
    );

    let stopping: Promise<void> | null = null;
    return {
      config,
      dataDir: config.dataDir,
      events,
      tunnel: tunnel.service,
      instances,
      apiUrl: listeners.apiUrl,
      receiverUrl: listeners.receiverUrl,
      issueToken: async (name = LOCAL_ACCOUNT, ttlMs = config.tokenTtlMs) =>
        tokens.issue(accountIdFor(name), name, ttlMs),
      mountedRoutes: () => mountedRoutes(apiApp),
      signInUrl: async () =>
        (await session.service.issueLink({ id: accountIdFor(config.owner), name: config.owner })).url,
      checkpoint: () => backend.checkpoint(),
      // Listeners close first (no new deliveries), then the store checkpoints, then the lock goes.
      stop: () =>
        (stopping ??= (async () => {
          logger.info('engine stopping');
          const started = performance.now();
          await unwind(() => logger.info({ ms: Math.round(performance.now() - started) }, 'engine stopped'));
        })()),
    };
  } catch (e) {
    logger.error({ err: e }, 'engine did not start');
    await unwind();
    throw e;
  }
}
