import type { AccountContext } from './account-context.ts';
import { parseBearer, type TokenService } from './token-service.ts';

/**
 * What authentication needs from the accounts feature: the row for a token's
 * account made on its first use. Declared here (the accounts service satisfies it)
 * so auth, which every feature sits on, depends on no feature.
 */
export interface AccountRegistry {
  ensure(account: AccountContext): Promise<void>;
}

/** Turns an Authorization header into the account it acts for, creating the account on first use. */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly accounts: AccountRegistry,
  ) {}

  async authenticate(authorization: string | undefined): Promise<AccountContext> {
    const claims = await this.tokens.verify(parseBearer(authorization));
    const account = { id: claims.accountId, name: claims.accountName };
    await this.accounts.ensure(account);
    return account;
  }
}
