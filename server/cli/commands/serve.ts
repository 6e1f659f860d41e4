import type { Command } from 'commander';
import { loadConfigFile, resolveConfig } from '../../config/config.ts';
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
    .option('--tunnel', 'open a public URL through localtunnel')
    .option('--no-tunnel', 'serve locally only (the default for now)')
    .option('--tunnel-host <url>', 'localtunnel server to use')
    .option('--subdomain <name>', 'subdomain to ask the tunnel server for')
    .action((opts: ServeOptions) => run(() => serve(opts, io)));
}

export async function serve(opts: ServeOptions, io: CliIO): Promise<number> {
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: io.env });
  const flags: { apiPort?: number; receiverPort?: number } = {};
  if (opts.apiPort !== undefined) flags.apiPort = parsePort(opts.apiPort, '--api-port');
  if (opts.receiverPort !== undefined) flags.receiverPort = parsePort(opts.receiverPort, '--receiver-port');
  const config = resolveConfig({ dataDir, flags, env: io.env, file: await loadConfigFile(dataDir) });

  const engine = await startEngine(config);
  const version = readVersion();
  io.out(`Hookscope ${version.version} engine running`);
  io.out(`  API        ${engine.apiUrl}   (127.0.0.1 only; send Authorization: Bearer <token>)`);
  io.out(`  Receiver   ${engine.receiverUrl}/webhook/<endpointId>`);
  io.out(`  Data       ${engine.dataDir}`);
  if (opts.tunnel === true) {
    io.out('  Tunnel     not available in this build yet; serving locally only');
  }
  io.out(`  Token      npx hookscope token --data-dir ${quote(engine.dataDir)}`);
  io.out('Press Ctrl+C to stop.');
  return waitForSignal(engine, io);
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
