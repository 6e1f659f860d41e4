import type { Command } from 'commander';
import { accountIdFor, LOCAL_ACCOUNT, validateAccountName } from '../../auth/account-id.ts';
import { loadOrCreateSigningKey } from '../../auth/signing-key.ts';
import { TokenService } from '../../auth/token-service.ts';
import { loadConfigFile, resolveConfig } from '../../config/config.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import { parseDuration } from '../../config/durations.ts';
import { systemClock } from '../../support/clock.ts';
import { cryptoRandom } from '../../support/random.ts';
import type { CliIO } from '../cli-output.ts';

export interface TokenOptions {
  dataDir?: string;
  user?: string;
  ttl?: string;
  json?: boolean;
}

export function registerToken(program: Command, io: CliIO, run: (action: () => Promise<number>) => Promise<void>): void {
  program
    .command('token')
    .description('Print an API token (a JWT) for an account on stdout')
    .option('--data-dir <dir>', 'data directory of the engine')
    .option('--user <name>', `account name (default "${LOCAL_ACCOUNT}"; created on first use)`)
    .option('--ttl <duration>', 'lifetime: 10s, 15m, 12h or 30d (default 30d)')
    .option('--json', 'print { token, accountId, expiresAt } as JSON')
    .action((opts: TokenOptions) => run(() => token(opts, io)));
}

/**
 * Signs with the install's key file directly, so it works whether or not an
 * engine is running; the engine creates the account on the token's first use.
 */
export async function token(opts: TokenOptions, io: CliIO): Promise<number> {
  const name = opts.user ?? LOCAL_ACCOUNT;
  validateAccountName(name);
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: io.env });
  const config = resolveConfig({ dataDir, env: io.env, file: await loadConfigFile(dataDir) });
  const ttlMs = opts.ttl !== undefined ? parseDuration(opts.ttl) : config.tokenTtlMs;
  const key = await loadOrCreateSigningKey(dataDir, cryptoRandom);
  const accountId = accountIdFor(name);
  const jwt = await new TokenService({ key, clock: systemClock }).issue(accountId, name, ttlMs);
  if (opts.json) {
    io.out(JSON.stringify({ token: jwt, accountId, account: name, expiresAt: new Date(Date.now() + ttlMs).toISOString() }));
  } else {
    io.out(jwt);
  }
  return 0;
}
