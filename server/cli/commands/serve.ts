import type { Command } from 'commander';
import type { CliIO } from '../cli-output.ts';
import { portArg } from '../option-parsers.ts';

export interface ServeOptions {
  dataDir?: string;
  apiHost?: string;
  apiPort?: number;
  receiverHost?: string;
  receiverPort?: number;
  publicUrl?: string;
  owner?: string;
  database?: string;
  trustProxy?: string;
  tunnel?: boolean;
  tunnelHost?: string;
  subdomain?: string;
}

export function registerServe(
  program: Command,
  io: CliIO,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command('serve')
    .description('Run the engine headless: the private API on 127.0.0.1 and the webhook receiver')
    .option('--data-dir <dir>', 'data directory (default: $HOOKSCOPE_DATA_DIR or the OS data folder)')
    .option('--api-host <address>', 'address the API listens on (default $HOOKSCOPE_API_HOST or 127.0.0.1)')
    .option('--api-port <n>', 'API port (default 4680; 0 = any free port)', portArg)
    .option(
      '--receiver-host <address>',
      'address the receiver listens on (default $HOOKSCOPE_RECEIVER_HOST or 127.0.0.1)',
    )
    .option('--receiver-port <n>', 'receiver port (default 4681; 0 = any free port)', portArg)
    .option(
      '--public-url <url>',
      'a team server: the https origin your reverse proxy answers at; base of receiving, share and sign-in URLs, ' +
        'and the one host the API accepts beside loopback (default $HOOKSCOPE_PUBLIC_URL)',
    )
    .option(
      '--owner <name>',
      'account that may change engine-wide settings (default $HOOKSCOPE_OWNER or the local account)',
    )
    .option(
      '--database <url>',
      'a team server: the PostgreSQL URL every instance shares (default $HOOKSCOPE_DATABASE_URL; none: the embedded store)',
    )
    .option(
      '--trust-proxy <list>',
      'a team server: reverse proxies (comma-separated addresses and CIDR ranges, such as 127.0.0.1,10.0.0.0/8) ' +
        'whose X-Forwarded-For names the client (default $HOOKSCOPE_TRUST_PROXY; none: the socket address)',
    )
    .option('--tunnel', 'open a public URL through localtunnel (only the receiver is exposed)')
    .option('--no-tunnel', 'serve locally only (the default for serve)')
    .option('--tunnel-host <url>', 'localtunnel server (default $HOOKSCOPE_TUNNEL_HOST or https://localtunnel.me)')
    .option(
      '--subdomain <name>',
      'subdomain to ask for, 4-63 lowercase letters and digits (default: the remembered one)',
    )
    .action((opts: ServeOptions) => run(async () => (await import('./serve-run.ts')).serve(opts, io)));
}
