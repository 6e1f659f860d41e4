import type { AccountContext } from './account-context.ts';
import { accountIdFor } from './account-id.ts';

/**
 * Whether `account` is the install's owner, the account named by config
 * (`--owner`, default the local account: on a laptop, whoever is local).
 * Engine-wide settings (tunnel, retention, rate limit, LLM) affect every account
 * on this install, so only the owner may change them; any account may read them.
 */
export function isOwner(account: AccountContext, owner: string): boolean {
  return account.id === accountIdFor(owner);
}
