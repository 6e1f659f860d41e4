import { join } from 'node:path';
import { accountsMigrations } from '../accounts/accounts-migrations.ts';
import { AccountsRepository } from '../accounts/accounts-repository.ts';
import { AccountsService } from '../accounts/accounts-service.ts';
import { accountIdFor, LOCAL_ACCOUNT } from '../auth/account-id.ts';
import { Authenticator } from '../auth/authenticator.ts';
import { loadOrCreateSigningKey } from '../auth/signing-key.ts';
import { TokenService } from '../auth/token-service.ts';
import type { EngineConfig } from '../config/config.ts';
import { endpointsMigrations } from '../endpoints/endpoints-migrations.ts';
import { EndpointsRepository } from '../endpoints/endpoints-repository.ts';
import { endpointsRoutes } from '../endpoints/endpoints-routes.ts';
import { EndpointsService } from '../endpoints/endpoints-service.ts';
import { TestDeliveryService } from '../endpoints/test-delivery-service.ts';
import { EventBus } from '../events/event-bus.ts';
import { EVENT_SCHEMAS } from '../events/event-map.ts';
import { EventStreamService } from '../events/event-stream-service.ts';
import { eventsRoutes } from '../events/events-routes.ts';
import { createApiApp } from '../http/api-app.ts';
import { startListeners, type RunningListeners } from '../http/listeners.ts';
import { mountedRoutes, type MountedRoute } from '../http/mounted-routes.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../http/openapi.ts';
import type { RouteSpec } from '../http/route.ts';
import { systemRoutes } from '../http/system-routes.ts';
import { logsMigrations } from '../logs/logs-migrations.ts';
import { LogsRepository } from '../logs/logs-repository.ts';
import { logsRoutes } from '../logs/logs-routes.ts';
import { LogsService } from '../logs/logs-service.ts';
import { metricsMigrations } from '../metrics/metrics-migrations.ts';
import { metricsObserver } from '../metrics/metrics-observer.ts';
import { MetricsRepository } from '../metrics/metrics-repository.ts';
import { metricsRoutes } from '../metrics/metrics-routes.ts';
import { MetricsService } from '../metrics/metrics-service.ts';
import { BodyBudget } from '../receiver/body-budget.ts';
import { RateLimiter } from '../receiver/rate-limiter.ts';
import { Receiver, receiverLimits } from '../receiver/receiver-handler.ts';
import { DiagnoseService } from '../diagnose/diagnose-service.ts';
import { diagnoseRoutes } from '../diagnose/diagnose-routes.ts';
import { exportRoutes } from '../export/export-routes.ts';
import { ExportService } from '../export/export-service.ts';
import { shareMigrations } from '../share/share-migrations.ts';
import { sharePageHandler } from '../share/share-page.ts';
import { ShareRepository } from '../share/share-repository.ts';
import { shareRoutes } from '../share/share-routes.ts';
import { ShareService } from '../share/share-service.ts';
import { remediationMigrations } from '../remediation/remediation-migrations.ts';
import { RemediationRepository } from '../remediation/remediation-repository.ts';
import { remediationRoutes } from '../remediation/remediation-routes.ts';
import { RemediationService } from '../remediation/remediation-service.ts';
import { ForwardQueueRepository } from '../replay/forward-queue-repository.ts';
import { Forwarder } from '../replay/forwarder.ts';
import { replayMigrations } from '../replay/replay-migrations.ts';
import { ReplayRepository } from '../replay/replay-repository.ts';
import { replayRoutes } from '../replay/replay-routes.ts';
import { ReplayService } from '../replay/replay-service.ts';
import { SqljsStore } from '../store/sqljs-store.ts';
import type { Migration } from '../store/store-types.ts';
import { BaseUrls } from '../support/base-urls.ts';
import { isoTime, systemClock, type Clock } from '../support/clock.ts';
import { IdGenerator } from '../support/ids.ts';
import { openEngineLog, type EngineLog, type Logger } from '../support/logger.ts';
import { faultReporter } from '../support/logger-faults.ts';
import { cryptoRandom, type Random } from '../support/random.ts';
import { readVersion } from '../support/version.ts';
import { createTunnelService } from '../tunnel/create-tunnel.ts';
import { tunnelRoutes } from '../tunnel/tunnel-routes.ts';
import type { TunnelService } from '../tunnel/tunnel-service.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { describeModeChanges, tightenDataDir } from './data-dir-permissions.ts';
import { removeRuntimeFile, writeRuntimeFile } from './runtime-file.ts';

export interface EngineDeps {
  clock?: Clock;
  random?: Random;
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
}

export interface Engine {
  readonly config: EngineConfig;
  readonly apiUrl: string;
  readonly receiverUrl: string;
  readonly dataDir: string;
  /** Live events per account (what `/api/events` streams). */
  readonly events: EventBus;
  /** The public URL through localtunnel. */
  readonly tunnel: TunnelService;
  /** A token for the named account (default: the local one). */
  issueToken(accountName?: string, ttlMs?: number): Promise<string>;
  /** The routes mounted on the API app, as Express holds them (for the contract test). */
  mountedRoutes(): MountedRoute[];
  /** Snapshot the store now (also done periodically and on stop). */
  checkpoint(): Promise<void>;
  stop(): Promise<void>;
}

/** Every feature's migrations; versions are unique across the engine and checked in tests. */
export const ALL_MIGRATIONS: Migration[] = [
  ...accountsMigrations,
  ...endpointsMigrations,
  ...logsMigrations,
  ...replayMigrations,
  ...shareMigrations,
  ...metricsMigrations,
  ...remediationMigrations,
];

/**
 * The composition root: one engine for the desktop app, `hookscope serve` and
 * the tests. It wires store -> repositories -> services -> routes -> listeners
 * and passes every collaborator in explicitly.
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
    const key = await loadOrCreateSigningKey(config.dataDir, random);
    const tokens = new TokenService({ key, clock });
    const store = await SqljsStore.open({
      dir: join(config.dataDir, 'store'),
      migrations: ALL_MIGRATIONS,
      sync: config.durability.sync,
      syncIntervalMs: config.durability.syncIntervalMs,
      checkpointBytes: config.durability.checkpointBytes,
      checkpointIntervalMs: config.durability.checkpointIntervalMs,
      onCheckpoint: (r) => logger.info({ bytes: r.bytes, ms: r.ms, lastSeq: r.lastSeq }, 'checkpoint'),
      clock,
      onError,
    });
    cleanups.push(() => store.close());

    const rateLimiter = new RateLimiter(config.receiver.rateLimit, clock);
    const urls = new BaseUrls();
    urls.publicBase = config.publicBaseUrl;

    const accounts = new AccountsService(new AccountsRepository(store), clock);
    const logs = new LogsService(new LogsRepository(store, config.retention), ids);
    const events = new EventBus({ now: () => clock.now() });
    // `tunnel` is built below; the notice is only asked for on requests, after start-up.
    const shares = new ShareService({
      repo: new ShareRepository(store),
      logs,
      urls,
      clock,
      random,
      browserNotice: () => tunnel.status().browserNotice,
      events,
    });
    const endpoints: EndpointsService = new EndpointsService({
      repo: new EndpointsRepository(store),
      clock,
      random,
      ids,
      urls,
      secretGraceMs: config.secretGraceMs,
      // The services named here are built just below; these hooks only run on requests, after start-up.
      onDelete: async (accountId, endpointId) => {
        await shares.deleteForEndpoint(accountId, endpointId);
        await remediation.deleteForEndpoint(accountId, endpointId);
        await replays.deleteForEndpoint(accountId, endpointId);
        await logs.deleteForEndpoint(accountId, endpointId);
        rateLimiter.forget(endpointId);
      },
      onUpdate: (before, after): Promise<void> => forwarder.endpointUpdated(before, after),
      events,
    });
    const forwardQueue = new ForwardQueueRepository(store);
    const replays: ReplayService = new ReplayService({
      repo: new ReplayRepository(store),
      queue: forwardQueue,
      logs,
      endpoints,
      clock,
      ids,
      events,
    });
    const forwarder: Forwarder = new Forwarder({
      queue: forwardQueue,
      replays,
      endpoints,
      events,
      clock,
      random,
      ids,
      policy: config.forward,
      onError,
    });
    cleanups.push(() => forwarder.stop());
    const metrics = new MetricsService({ repo: new MetricsRepository(store), logs, endpoints, replays, clock });
    const remediation = new RemediationService({
      repo: new RemediationRepository(store),
      logs,
      endpoints,
      replays,
      clock,
      limits: {
        maxBodyBytes: config.maxBodyBytes,
        requestTimeoutMs: config.receiver.requestTimeoutMs,
        bodyIdleTimeoutMs: config.receiver.bodyIdleTimeoutMs,
        maxInFlightBodyBytes: config.receiver.maxInFlightBodyBytes,
      },
      secretGraceMs: config.secretGraceMs,
      llm: config.remediation.llm,
      events,
    });
    await accounts.init();
    await endpoints.init();
    await endpoints.eraseExpiredSecrets();
    store.beforeCheckpoint(() => endpoints.eraseExpiredSecrets());
    await accounts.ensure({ id: accountIdFor(LOCAL_ACCOUNT), name: LOCAL_ACCOUNT });
    await forwarder.start();

    const eventStreams = new EventStreamService({ bus: events, heartbeatMs: config.sseHeartbeatMs });
    const runtimeInfo = {
      pid: process.pid,
      apiUrl: '',
      receiverUrl: '',
      publicUrl: urls.publicBase,
      startedAt: isoTime(clock.now()),
      version: version.version,
    };
    const tunnel = createTunnelService({
      config: config.tunnel,
      dataDir: config.dataDir,
      urls,
      events,
      accounts,
      clock,
      random,
      onPublicUrl: (publicUrl) => writeRuntimeFile(config.dataDir, { ...runtimeInfo, publicUrl }),
      onError,
    });
    const receiver = new Receiver({
      endpoints,
      logs,
      clock,
      limits: receiverLimits({
        maxBodyBytes: config.maxBodyBytes,
        requestTimeoutMs: config.receiver.requestTimeoutMs,
        bodyIdleTimeoutMs: config.receiver.bodyIdleTimeoutMs,
      }),
      rateLimiter,
      budget: new BodyBudget(config.receiver.maxInFlightBodyBytes),
      onError: reportFault,
      observers: [
        { stored: (d) => void events.publish(d.accountId, 'log.created', logs.summarize(d)) },
        forwarder,
        metricsObserver(metrics),
        tunnel.observer,
      ],
    });
    let openapi: OpenApiDocument | null = null;
    const routes: RouteSpec[] = [
      ...systemRoutes(version, () => (openapi ??= buildOpenApiDocument(routes, version.version, EVENT_SCHEMAS))),
      ...endpointsRoutes(endpoints, new TestDeliveryService({ endpoints, urls, clock, random })),
      ...logsRoutes(logs),
      ...eventsRoutes(eventStreams),
      ...replayRoutes(replays, forwarder),
      ...shareRoutes(shares),
      ...exportRoutes(new ExportService({ logs, urls, creator: { name: version.name, version: version.version } })),
      ...diagnoseRoutes(new DiagnoseService({ logs, endpoints, replays, urls, clock })),
      ...remediationRoutes(remediation),
      ...metricsRoutes(metrics),
      ...tunnelRoutes(tunnel),
    ];
    const apiApp = createApiApp({ routes, auth: new Authenticator(tokens, accounts), reportFault });

    const listeners: RunningListeners = await startListeners({
      apiHost: config.apiHost,
      apiPort: config.apiPort,
      receiverHost: config.receiverHost,
      receiverPort: config.receiverPort,
      apiApp,
      receiver: (req, res) => receiver.handle(req, res),
      share: sharePageHandler(shares, reportFault),
      receiverTimeouts: {
        headersTimeoutMs: config.receiver.headersTimeoutMs,
        requestTimeoutMs: config.receiver.requestTimeoutMs,
      },
    });
    cleanups.push(() => listeners.close());
    // Runs before the listeners close: open SSE streams would otherwise hold close() open.
    cleanups.push(async () => eventStreams.close());
    urls.api = listeners.apiUrl;
    urls.receiver = listeners.receiverUrl;

    runtimeInfo.apiUrl = listeners.apiUrl;
    runtimeInfo.receiverUrl = listeners.receiverUrl;
    await writeRuntimeFile(config.dataDir, runtimeInfo);
    cleanups.push(() => removeRuntimeFile(config.dataDir));
    cleanups.push(logTunnelStates(tunnel, logger));
    // The tunnel points at the receiver listener only; it closes first on stop.
    await tunnel.start(listeners.receiverUrl, config.receiverHost);
    cleanups.push(() => tunnel.stop());
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
      },
      'engine started',
    );

    let stopping: Promise<void> | null = null;
    return {
      config,
      dataDir: config.dataDir,
      events,
      tunnel,
      apiUrl: listeners.apiUrl,
      receiverUrl: listeners.receiverUrl,
      issueToken: async (name = LOCAL_ACCOUNT, ttlMs = config.tokenTtlMs) =>
        tokens.issue(accountIdFor(name), name, ttlMs),
      mountedRoutes: () => mountedRoutes(apiApp),
      checkpoint: async () => {
        await store.checkpoint();
      },
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

/**
 * One info line per tunnel state change. A retry while offline (connecting,
 * then offline again with the same reason) is not a change worth a line: with
 * backoff up to 30 s it would be two lines a minute for as long as the network is down.
 */
function logTunnelStates(tunnel: TunnelService, logger: Logger): () => Promise<void> {
  let last: { state: string; lastError: string | null } | null = null;
  const unsubscribe = tunnel.subscribe((t) => {
    const down = last?.state === 'offline' || last?.state === 'error';
    if (down && t.state === 'connecting') return;
    if (last && last.state === t.state && last.lastError === t.lastError) return;
    last = { state: t.state, lastError: t.lastError };
    logger.info(
      { state: t.state, url: t.url, host: t.host, attempts: t.attempts, lastError: t.lastError },
      'tunnel state',
    );
  });
  return async () => unsubscribe();
}
