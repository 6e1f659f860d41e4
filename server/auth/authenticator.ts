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

/** What authentication needs from the session feature (its service satisfies it), declared here for the same reason. */
export interface SessionRegistry {
  /** The account a live session signs in; throws UnauthorizedError for an unknown, ended or expired one. */
  accountOf(sessionId: string): Promise<AccountContext>;
}

/** The parts of a request that say who sent it. */
export interface Credentials {
  /** Whether the route makes the engine act (RouteBase.acts in server/http/route.ts). */
  acts: boolean;
  authorization: string | undefined;
  cookie: string | undefined;
  /** The value of `x-hookscope-request`, which only the engine's own pages send. */
  requestHeader: string | undefined;
}

/**
 * Turns a request's credentials into the account it acts for, creating the
 * account on first use: a bearer token (the CLI, scripts), else the renderer's
 * session cookie. A browser sends cookies with any request to the origin, even
 * one another page on this host triggers, so a cookie-signed request to a route
 * that acts must also carry `x-hookscope-request`, which such a page cannot send.
 */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly accounts: AccountRegistry,
    private readonly sessions: SessionRegistry,
  ) {}

  async authenticate(c: Credentials): Promise<AccountContext> {
    const session = c.authorization === undefined ? sessionFromCookies(c.cookie) : undefined;
    let account: AccountContext;
    if (session === undefined) {
      const claims = await this.tokens.verify(parseBearer(c.authorization));
      account = { id: claims.accountId, name: claims.accountName };
    } else {
      if (c.acts && c.requestHeader === undefined) {
        throw new ForbiddenError(
          `Requests that make the engine act must carry the ${SESSION_REQUEST_HEADER} header when they are signed in by cookie.`,
          'REQUEST_HEADER_REQUIRED',
        );
      }
      account = await this.sessions.accountOf(session);
    }
    await this.accounts.ensure(account);
    return account;
  }
}
