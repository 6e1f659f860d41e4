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
 */
export async function mintToken(dataDir: string, name: string = LOCAL_ACCOUNT, ttlMs: number): Promise<MintedToken> {
  validateAccountName(name);
  const key = await loadOrCreateSigningKey(dataDir, cryptoRandom);
  const accountId = accountIdFor(name);
  const token = await new TokenService({ key, clock: systemClock }).issue(accountId, name, ttlMs);
  return { token, accountId, account: name, expiresAt: new Date(systemClock.now() + ttlMs).toISOString() };
}
