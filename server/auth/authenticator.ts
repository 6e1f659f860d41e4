import type { AccountsService } from '../accounts/accounts-service.ts';
import type { AccountContext } from './account-context.ts';
import { parseBearer, type TokenService } from './token-service.ts';

/** Turns an Authorization header into the account it acts for, creating the account on first use. */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly accounts: AccountsService,
  ) {}

  async authenticate(authorization: string | undefined): Promise<AccountContext> {
    const claims = await this.tokens.verify(parseBearer(authorization));
    const account = { id: claims.accountId, name: claims.accountName };
    await this.accounts.ensure(account);
    return account;
  }
}
