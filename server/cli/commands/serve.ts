import type { Command } from 'commander';
import { loadConfigFile, resolveConfig, type ConfigInput } from '../../config/config.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import { startEngine, type Engine } from '../../engine/engine.ts';
import { readVersion } from '../../engine/version.ts';
import type { CliIO } from '../cli-output.ts';
import { parsePort } from '../parse-flags.ts';

export interface ServeOptions {
  dataDir?: string;
  apiPort?: string;
  receiverPort?: string;
  tunnel?: boolean;
  tunnelHost?: string;
  subdomain?: string;
}

export function registerServe(program: Command, io: CliIO, run: (action: () => Promise<number>) => Promise<void>): void {
  program
    .command('serve')
    .description('Run the engine headless: the private API on 127.0.0.1 and the webhook receiver')
    .option('--data-dir <dir>', 'data directory (default: $HOOKSCOPE_DATA_DIR or the OS data folder)')
    .option('--api-port <n>', 'API port on 127.0.0.1 (default 4680; 0 = any free port)')
    .option('--receiver-port <n>', 'receiver port (default 4681; 0 = any free port)')
    .option('--tunnel', 'open a public URL through localtunnel (only the receiver is exposed)')
    .option('--no-tunnel', 'serve locally only (the default for serve)')
    .option('--tunnel-host <url>', 'localtunnel server (default $HOOKSCOPE_TUNNEL_HOST or https://localtunnel.me)')
    .option('--subdomain <name>', 'subdomain to ask for, 4-63 lowercase letters and digits (default: the remembered one)')
    .action((opts: ServeOptions) => run(() => serve(opts, io)));
}

export async function serve(opts: ServeOptions, io: CliIO): Promise<number> {
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: io.env });
  const flags: NonNullable<ConfigInput['flags']> = {};
  if (opts.apiPort !== undefined) flags.apiPort = parsePort(opts.apiPort, '--api-port');
  if (opts.receiverPort !== undefined) flags.receiverPort = parsePort(opts.receiverPort, '--receiver-port');
  if (opts.tunnel !== undefined) flags.tunnel = opts.tunnel;
  if (opts.tunnelHost !== undefined) flags.tunnelHost = opts.tunnelHost;
  if (opts.subdomain !== undefined) flags.subdomain = opts.subdomain;
  const config = resolveConfig({ dataDir, flags, env: io.env, file: await loadConfigFile(dataDir) });

  const engine = await startEngine(config);
  const version = readVersion();
  io.out(`Hookscope ${version.version} engine running`);
  io.out(`  API        ${engine.apiUrl}   (127.0.0.1 only; send Authorization: Bearer <token>)`);
  io.out(`  Receiver   ${engine.receiverUrl}/webhook/<endpointId>`);
  io.out(`  Data       ${engine.dataDir}`);
  if (config.tunnel.enabled) io.out(`  Tunnel     connecting to ${config.tunnel.host} (only the receiver is exposed)`);
  io.out(`  Token      npx hookscope token --data-dir ${quote(engine.dataDir)}`);
  io.out('Press Ctrl+C to stop.');
  const unsubscribe = reportTunnel(engine, io);
  try {
    return await waitForSignal(engine, io);
  } finally {
    unsubscribe();
  }
}

/** One line whenever the public URL appears, changes or goes away (not on every retry). */
function reportTunnel(engine: Engine, io: CliIO): () => void {
  let shown: string | null = null;
  let offlineSaid = false;
  return engine.tunnel.subscribe((t) => {
    if (t.state === 'online' && t.url && t.url !== shown) {
      shown = t.url;
      offlineSaid = false;
      io.out(`  Public     ${t.url}/webhook/<endpointId>`);
      if (t.lastError) io.out(`             ${t.lastError}`);
      if (t.browserNotice) io.out(`             Note: ${t.browserNotice}`);
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

/** Stops cleanly (listeners, then a store checkpoint) on SIGINT/SIGTERM; a second signal forces exit. */
function waitForSignal(engine: Engine, io: CliIO): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) {
        io.err(`Received ${signal} again; exiting without a checkpoint (the journal keeps every acknowledged write).`);
        process.exit(1);
      }
      stopping = true;
      io.out(`Received ${signal}; stopping...`);
      engine.stop().then(
        () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          io.out('Stopped.');
          resolve(0);
        },
        (e: unknown) => {
          io.err(`Stopping failed: ${e instanceof Error ? e.message : String(e)}`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

const quote = (s: string): string => (/^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
