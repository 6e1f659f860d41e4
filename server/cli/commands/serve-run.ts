// What `hookscope serve` does, loaded only when it runs: the engine and its
// dependencies (Express, sql.js, the tunnel) stay out of every other command.
import { loadConfigFile, resolveConfig, type EngineConfig } from '../../config/config.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import { describeDatabaseUrl } from '../../config/database-config.ts';
import { isLoopbackHost, servingWarnings } from '../../config/serving-config.ts';
import { startEngine, type Engine } from '../../engine/engine.ts';
import { readVersion } from '../../support/version.ts';
import { openEngineLog } from '../../support/logger.ts';
import { exitOnFatalErrors } from '../../support/logger-process.ts';
import { shellArg } from '../../support/shell-quote.ts';
import { LOCAL_ACCOUNT as DEFAULT_OWNER } from '../../auth/account-id.ts';
import type { CliIO } from '../cli-output.ts';
import type { ServeOptions } from './serve.ts';

export async function serve(opts: ServeOptions, io: CliIO): Promise<number> {
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: io.env });
  // Commander sets only the options given (with both --tunnel and --no-tunnel declared, no default).
  const { dataDir: _dataDir, ...flags } = opts;
  const config = resolveConfig({ dataDir, flags, env: io.env, file: await loadConfigFile(dataDir) });

  // JSON lines in <dataDir>/logs/engine.log; once the engine runs, the same as readable lines on stderr
  // (a start-up failure is the CLI's one-line error there, and the file has its stack).
  const log = await openEngineLog({ dataDir: config.dataDir });
  const detach = exitOnFatalErrors(process, log, (code) => process.exit(code));
  // Heard from before start-up: runtime.json, which tells other processes the engine is up, is written during it.
  const signals = stopSignals(io);
  try {
    const engine = await startEngine(config, { logger: log.logger });
    log.addConsole((line) => io.err(line));
    return await run(engine, config, io, signals.received);
  } finally {
    signals.detach();
    detach();
    await log.close();
  }
}

async function run(engine: Engine, config: EngineConfig, io: CliIO, signal: Promise<NodeJS.Signals>): Promise<number> {
  const version = readVersion();
  io.out(`Hookscope ${version.version} engine running`);
  io.out(`  Open       ${await engine.signInUrl()}`);
  io.out(`             (a one-time sign-in link to the UI; \`npx hookscope open\` makes another)`);
  const apiReach = isLoopbackHost(config.apiHost) ? `${config.apiHost} only` : `listening on ${config.apiHost}`;
  io.out(`  API        ${engine.apiUrl}   (${apiReach}; send Authorization: Bearer <token>)`);
  io.out(`  Receiver   ${engine.receiverUrl}/webhook/<endpointId>`);
  if (config.publicBaseUrl !== null) {
    io.out(`  Public     ${config.publicBaseUrl}/webhook/<endpointId>   (through your reverse proxy)`);
  }
  if (config.trustProxy.length > 0) {
    io.out(`  Proxies    ${config.trustProxy.join(', ')}   (their X-Forwarded-For names the client)`);
  }
  if (config.owner !== DEFAULT_OWNER) io.out(`  Owner      ${config.owner} (may change engine-wide settings)`);
  for (const line of servingWarnings(config)) io.err(line);
  io.out(`  Data       ${engine.dataDir}`);
  if (config.databaseUrl !== null) io.out(`  Database   ${describeDatabaseUrl(config.databaseUrl)}`);
  if (config.tunnel.enabled) io.out(`  Tunnel     connecting to ${config.tunnel.host} (only the receiver is exposed)`);
  const asOwner = config.owner === DEFAULT_OWNER ? '' : ` --user ${shellArg(config.owner)}`;
  io.out(`  Token      npx hookscope token --data-dir ${shellArg(engine.dataDir)}${asOwner}`);
  io.out('Press Ctrl+C to stop.');
  const unsubscribe = reportTunnel(engine, io);
  try {
    return await stopOn(await signal, engine, io);
  } finally {
    unsubscribe();
  }
}

/** One line whenever the public URL appears, changes or goes away (not on every retry). */
function reportTunnel(engine: Engine, io: CliIO): () => void {
  let shown: string | null = null;
  let offlineSaid = false;
  let failingSaid = false;
  return engine.tunnel.subscribe((t) => {
    if (t.state === 'online' && t.url && t.url !== shown) {
      shown = t.url;
      offlineSaid = failingSaid = false;
      io.out(`  Public     ${t.url}/webhook/<endpointId>`);
      if (t.lastError) io.out(`             ${t.lastError}`);
      if (t.browserNotice) io.out(`             Note: ${t.browserNotice}`);
    } else if (t.state === 'online' && failingSaid) {
      failingSaid = false;
      io.out('  Tunnel     answering again');
    } else if (t.state === 'degraded' && !failingSaid) {
      failingSaid = true;
      io.out(`  Tunnel     failing: ${t.lastError ?? 'a check through the public URL failed.'} Checking again...`);
    } else if ((t.state === 'offline' || t.state === 'error') && !offlineSaid) {
      shown = null;
      offlineSaid = true;
      io.out(`  Tunnel     ${t.state}: ${t.lastError ?? 'disconnected'} Reconnecting...`);
    } else if (t.state === 'disabled' && shown !== null) {
      shown = null;
      io.out('  Tunnel     disabled; serving locally only');
    }
  });
}

/** The first SIGINT/SIGTERM asks for a clean stop; a second one forces the exit. */
function stopSignals(io: CliIO): { received: Promise<NodeJS.Signals>; detach(): void } {
  let first: NodeJS.Signals | null = null;
  let resolve: (signal: NodeJS.Signals) => void = () => undefined;
  const received = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const onSignal = (signal: NodeJS.Signals): void => {
    if (first !== null) {
      io.err(`Received ${signal} again; exiting without a checkpoint (the journal keeps every acknowledged write).`);
      process.exit(1);
    }
    first = signal;
    resolve(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    received,
    detach: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Stops cleanly: listeners, then a store checkpoint. */
async function stopOn(signal: NodeJS.Signals, engine: Engine, io: CliIO): Promise<number> {
  io.out(`Received ${signal}; stopping...`);
  try {
    await engine.stop();
  } catch (e) {
    io.err(`Stopping failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  io.out('Stopped.');
  return 0;
}
