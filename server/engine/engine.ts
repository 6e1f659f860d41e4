import { mkdir } from 'node:fs/promises';
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
import { EventBus } from '../events/event-bus.ts';
import { createApiApp } from '../http/api-app.ts';
import { startListeners, type RunningListeners } from '../http/listeners.ts';
import { mountedRoutes, type MountedRoute } from '../http/mounted-routes.ts';
import { buildOpenApiDocument } from '../http/openapi.ts';
import type { RouteSpec } from '../http/route.ts';
import { systemRoutes } from '../http/system-routes.ts';
import { logsMigrations } from '../logs/logs-migrations.ts';
import { LogsRepository } from '../logs/logs-repository.ts';
import { logsRoutes } from '../logs/logs-routes.ts';
import { LogsService } from '../logs/logs-service.ts';
import { Receiver, receiverLimits } from '../receiver/receiver-handler.ts';
import { SqljsStore } from '../store/sqljs-store.ts';
import type { Migration } from '../store/store-types.ts';
import { BaseUrls } from '../support/base-urls.ts';
import { isoTime, systemClock, type Clock } from '../support/clock.ts';
import { IdGenerator } from '../support/ids.ts';
import { cryptoRandom, type Random } from '../support/random.ts';
import { createTunnelService } from '../tunnel/create-tunnel.ts';
import { tunnelRoutes } from '../tunnel/tunnel-routes.ts';
import type { TunnelService } from '../tunnel/tunnel-service.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { removeRuntimeFile, writeRuntimeFile } from './runtime-file.ts';
import { readVersion } from './version.ts';

export interface EngineDeps {
  clock?: Clock;
  random?: Random;
  /** Where unexpected errors go (stderr by default); never to a client. */
  onError?: (err: unknown) => void;
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
export const ALL_MIGRATIONS: Migration[] = [...accountsMigrations, ...endpointsMigrations, ...logsMigrations];

const defaultOnError = (err: unknown): void => {
  console.error(`hookscope: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
};

/**
 * The composition root: one engine for the desktop app, `hookscope serve` and
 * the tests. It wires store -> repositories -> services -> routes -> listeners
 * and passes every collaborator in explicitly.
 */
export async function startEngine(config: EngineConfig, deps: EngineDeps = {}): Promise<Engine> {
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? cryptoRandom;
  const onError = deps.onError ?? defaultOnError;
  const version = readVersion();

  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const releaseLock = await acquireDataDirLock(config.dataDir);
  const cleanups: (() => Promise<void>)[] = [releaseLock];
  const unwind = async (): Promise<void> => {
    for (const c of cleanups.reverse()) await c().catch(onError);
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
      clock,
      onError,
    });
    cleanups.push(() => store.close());

    const ids = new IdGenerator(clock, random);
    const urls = new BaseUrls();
    urls.publicBase = config.publicBaseUrl;

    const accounts = new AccountsService(new AccountsRepository(store), clock);
    const logs = new LogsService(new LogsRepository(store, config.retention), ids);
    const endpoints = new EndpointsService({
      repo: new EndpointsRepository(store),
      clock,
      random,
      ids,
      urls,
      secretGraceMs: config.secretGraceMs,
      onDelete: (accountId, endpointId) => logs.deleteForEndpoint(accountId, endpointId),
    });
    await accounts.init();
    await endpoints.init();
    await accounts.ensure({ id: accountIdFor(LOCAL_ACCOUNT), name: LOCAL_ACCOUNT });

    const events = new EventBus({ now: () => clock.now() });
    const runtimeInfo = { pid: process.pid, apiUrl: '', receiverUrl: '', publicUrl: urls.publicBase, startedAt: isoTime(clock.now()), version: version.version };
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
      limits: receiverLimits(config.maxBodyBytes),
      onError,
      observers: [{ stored: (d) => void events.publish(d.accountId, 'log.created', logs.summarize(d)) }, tunnel.observer],
    });
    let openapi: object | null = null;
    const routes: RouteSpec[] = [
      ...systemRoutes(version, () => (openapi ??= buildOpenApiDocument(routes, version.version))),
      ...endpointsRoutes(endpoints),
      ...logsRoutes(logs),
      ...tunnelRoutes(tunnel),
    ];
    const apiApp = createApiApp({ routes, auth: new Authenticator(tokens, accounts), onError });

    const listeners: RunningListeners = await startListeners({
      apiHost: config.apiHost,
      apiPort: config.apiPort,
      receiverHost: config.receiverHost,
      receiverPort: config.receiverPort,
      apiApp,
      receiver: (req, res) => receiver.handle(req, res),
    });
    cleanups.push(() => listeners.close());
    urls.api = listeners.apiUrl;
    urls.receiver = listeners.receiverUrl;

    runtimeInfo.apiUrl = listeners.apiUrl;
    runtimeInfo.receiverUrl = listeners.receiverUrl;
    await writeRuntimeFile(config.dataDir, runtimeInfo);
    cleanups.push(() => removeRuntimeFile(config.dataDir));
    // The tunnel points at the receiver listener only; it closes first on stop.
    await tunnel.start(listeners.receiverUrl, config.receiverHost);
    cleanups.push(() => tunnel.stop());

    let stopping: Promise<void> | null = null;
    return {
      config,
      dataDir: config.dataDir,
      events,
      tunnel,
      apiUrl: listeners.apiUrl,
      receiverUrl: listeners.receiverUrl,
      issueToken: async (name = LOCAL_ACCOUNT, ttlMs = config.tokenTtlMs) => tokens.issue(accountIdFor(name), name, ttlMs),
      mountedRoutes: () => mountedRoutes(apiApp),
      checkpoint: async () => {
        await store.checkpoint();
      },
      // Listeners close first (no new deliveries), then the store checkpoints, then the lock goes.
      stop: () => (stopping ??= unwind()),
    };
  } catch (e) {
    await unwind();
    throw e;
  }
}
