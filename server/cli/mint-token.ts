import { accountIdFor, LOCAL_ACCOUNT, validateAccountName } from '../auth/account-id.ts';
import { loadOrCreateSigningKey } from '../auth/signing-key.ts';
import { TokenService } from '../auth/token-service.ts';
import { systemClock } from '../support/clock.ts';
import { cryptoRandom } from '../support/random.ts';

export interface MintedToken {
  token: string;
  accountId: string;
  account: string;
  expiresAt: string;
}

/**
 * Signs a token with the install's key file directly, so it works whether or
 * not an engine is running; the engine creates the account on the token's first use.
 * An instance of a team server keeps the database's key in that file too.
 */
export async function mintToken(dataDir: string, name: string = LOCAL_ACCOUNT, ttlMs: number): Promise<MintedToken> {
  return signWith(await loadOrCreateSigningKey(dataDir, cryptoRandom), name, ttlMs);
}

/** A token signed with a team server's key, read from its database: every instance accepts it. */
export async function mintTokenFromDatabase(databaseUrl: string, name: string, ttlMs: number): Promise<MintedToken> {
  validateAccountName(name);
  // Loaded only here: node-postgres stays out of every other command.
  const [{ PostgresDatabase }, { readPostgresSigningKey }] = await Promise.all([
    import('../storage/postgres/postgres-database.ts'),
    import('../storage/postgres/signing-key-postgres.ts'),
  ]);
  const failures: unknown[] = [];
  const db = new PostgresDatabase({ url: databaseUrl, onError: (e) => failures.push(e), max: 1 });
  try {
    const key = await readPostgresSigningKey(db);
    if (!key) {
      throw new Error(
        'No Hookscope engine has started on this database yet, so it has no signing key: ' +
          'start one with `hookscope serve --database <url>` first.',
      );
    }
    return signWith(key, name, ttlMs);
  } finally {
    await db.close();
  }
}

async function signWith(key: Uint8Array, name: string, ttlMs: number): Promise<MintedToken> {
  validateAccountName(name);
  const accountId = accountIdFor(name);
  const token = await new TokenService({ key, clock: systemClock }).issue(accountId, name, ttlMs);
  return { token, accountId, account: name, expiresAt: new Date(systemClock.now() + ttlMs).toISOString() };
}
