import type { AccountContext } from '../auth/account-context.ts';
import { isOwner } from '../auth/owner.ts';
import type { TokenService } from '../auth/token-service.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import { isoTime } from '../support/clock.ts';
import type { SessionView, SignInCode } from './session-schemas.ts';
import type { SignInCodes } from './sign-in-codes.ts';

export interface SessionServiceDeps {
  codes: SignInCodes;
  tokens: Pick<TokenService, 'issue'>;
  urls: Pick<BaseUrls, 'api'>;
  /** How long a browser stays signed in. */
  sessionTtlMs: number;
}

/** Sign-in links for the UI, and the sessions they turn into. */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  /** A one-time link to the UI for `account` (what `hookscope open` and the serve banner print). */
  issueLink(account: AccountContext): SignInCode {
    const { code, expiresAt } = this.deps.codes.issue(account);
    return { code, url: `${this.deps.urls.api}/#/sign-in/${code}`, expiresAt: isoTime(expiresAt) };
  }

  /** Spends a code; answers the session token for the cookie and what the UI shows. */
  async redeem(code: string): Promise<{ token: string; view: SessionView }> {
    const account = this.deps.codes.redeem(code);
    const token = await this.deps.tokens.issue(account.id, account.name, this.deps.sessionTtlMs);
    return { token, view: this.describe(account) };
  }

  describe(account: AccountContext): SessionView {
    return { account: { id: account.id, name: account.name }, owner: isOwner(account) };
  }
}
