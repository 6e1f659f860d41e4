import { ForbiddenError } from '../errors/app-errors.ts';
import type { AccountContext } from './account-context.ts';
import { SESSION_REQUEST_HEADER, sessionFromCookies } from './session-cookie.ts';
import { parseBearer, type TokenService } from './token-service.ts';

/**
 * What authentication needs from the accounts feature: the row for a token's
 * account made on its first use. Declared here (the accounts service satisfies it)
 * so auth, which every feature sits on, depends on no feature.
 */
export interface AccountRegistry {
  ensure(account: AccountContext): Promise<void>;
}

/** The parts of a request that say who sent it. */
export interface Credentials {
  method: string;
  authorization: string | undefined;
  cookie: string | undefined;
  /** The value of `x-hookscope-request`, which only the engine's own pages send. */
  requestHeader: string | undefined;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Turns a request's credentials into the account it acts for, creating the
 * account on first use: a bearer token (the CLI, scripts), else the renderer's
 * session cookie. A browser sends cookies with any request to the origin, even
 * one a hostile page triggers, so a cookie-authenticated request that changes
 * something must also carry `x-hookscope-request`, which such a page cannot send.
 */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly accounts: AccountRegistry,
  ) {}

  async authenticate(c: Credentials): Promise<AccountContext> {
    const session = c.authorization === undefined ? sessionFromCookies(c.cookie) : undefined;
    if (session !== undefined && !READS.has(c.method) && c.requestHeader === undefined) {
      throw new ForbiddenError(
        `Requests that change something must carry the ${SESSION_REQUEST_HEADER} header when they are signed in by cookie.`,
        'REQUEST_HEADER_REQUIRED',
      );
    }
    const claims = await this.tokens.verify(session ?? parseBearer(c.authorization));
    const account = { id: claims.accountId, name: claims.accountName };
    await this.accounts.ensure(account);
    return account;
  }
}
