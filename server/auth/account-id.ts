import { createHash } from 'node:crypto';
import { ConfigError } from '../errors/config-error.ts';

export const LOCAL_ACCOUNT = 'local';

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Account ids are derived from the account name so the CLI can mint a token from
 * the key file alone, without a running engine; the engine creates the account
 * the first time a valid token for it arrives.
 */
export function accountIdFor(name: string): string {
  const digest = createHash('sha256').update(`hookscope-account:${name}`).digest();
  let out = '';
  for (let i = 0; i < 20; i++) out += BASE32[digest[i]! & 31];
  return `acct_${out}`;
}

/** What an account name may be (`--user`, `--owner`). */
export const ACCOUNT_NAME_RE = /^[A-Za-z0-9._@-]{1,64}$/;

export function validateAccountName(name: string): void {
  if (!ACCOUNT_NAME_RE.test(name)) {
    throw new ConfigError(`--user must be 1 to 64 letters, digits or . _ @ - (got "${name}").`, '--user');
  }
}
