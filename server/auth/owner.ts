import type { AccountContext } from './account-context.ts';
import { accountIdFor, LOCAL_ACCOUNT } from './account-id.ts';

/**
 * The install's owner: the default account of `hookscope token`. Engine-wide
 * settings (the tunnel today) affect every account on this install, so only the
 * owner may change them; any account may read them.
 */
export function isOwner(account: AccountContext): boolean {
  return account.id === accountIdFor(LOCAL_ACCOUNT);
}
