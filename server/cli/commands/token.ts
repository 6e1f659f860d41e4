import type { Command } from 'commander';
import { LOCAL_ACCOUNT, validateAccountName } from '../../auth/account-id.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import { parseDuration } from '../../config/durations.ts';
import type { CliIO } from '../cli-output.ts';

export interface TokenOptions {
  dataDir?: string;
  user?: string;
  database?: string;
  ttl?: string;
  json?: boolean;
}

export function registerToken(
  program: Command,
  io: CliIO,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command('token')
    .description('Print an API token (a JWT) for an account on stdout')
    .option('--data-dir <dir>', 'data directory of the engine')
    .option('--user <name>', `account name (default "${LOCAL_ACCOUNT}"; created on first use)`)
    .option(
      '--database <url>',
      "a team server's PostgreSQL URL: sign with its key, valid on every instance (default $HOOKSCOPE_DATABASE_URL)",
    )
    .option('--ttl <duration>', 'lifetime: 10s, 15m, 12h or 30d (default 30d)')
    .option('--json', 'print { token, accountId, expiresAt } as JSON')
    .action((opts: TokenOptions) => run(() => token(opts, io)));
}

/** Works whether or not an engine is running (see mintToken); with a database, once one has started on it. */
export async function token(opts: TokenOptions, io: CliIO): Promise<number> {
  const name = opts.user ?? LOCAL_ACCOUNT;
  validateAccountName(name);
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: io.env });
  // Loaded here so that other commands' start-up does not pay for zod and jose.
  const [{ loadConfigFile, resolveConfig }, { mintToken, mintTokenFromDatabase }] = await Promise.all([
    import('../../config/config.ts'),
    import('../mint-token.ts'),
  ]);
  const flags = opts.database !== undefined ? { database: opts.database } : {};
  const config = resolveConfig({ dataDir, flags, env: io.env, file: await loadConfigFile(dataDir) });
  const ttlMs = opts.ttl !== undefined ? parseDuration(opts.ttl) : config.tokenTtlMs;
  const minted =
    config.databaseUrl !== null
      ? await mintTokenFromDatabase(config.databaseUrl, name, ttlMs)
      : await mintToken(dataDir, name, ttlMs);
  io.out(opts.json ? JSON.stringify(minted) : minted.token);
  return 0;
}
