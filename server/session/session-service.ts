import type { AccountContext } from '../auth/account-context.ts';
import type { SessionRegistry } from '../auth/authenticator.ts';
import { isOwner } from '../auth/owner.ts';
import { ConflictError, UnauthorizedError } from '../errors/app-errors.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { secretHash } from './secret-hash.ts';
import type { SessionRepository } from './session-repository.ts';
import type { IssuedToken, SessionView, SignInCode } from './session-schemas.ts';
import type { SignInCodes } from './sign-in-codes.ts';

export interface SessionServiceDeps {
  codes: SignInCodes;
  repo: SessionRepository;
  urls: Pick<BaseUrls, 'api'>;
  clock: Clock;
  random: Random;
  /** How long a browser stays signed in. */
  sessionTtlMs: number;
  /** The account that may change engine-wide settings. */
  owner: string;
  /** Signs a bearer token for an account; the engine's token service, which exists once the store is open. */
  issueToken: (account: AccountContext, ttlMs: number) => Promise<string>;
  /** How long a token traded for a code lasts (`tokenTtlMs`, as `hookscope token`'s). */
  tokenTtlMs: number;
}

/**
 * Sign-in links for the UI, and the sessions they turn into. A session is a
 * random id in the cookie and a row in the store (by hash), checked on every
 * request: signing out deletes the row, so the cookie stops working at once,
 * and the rows survive a restart like everything else in the store.
 */
export class SessionService implements SessionRegistry {
  constructor(private readonly deps: SessionServiceDeps) {}

  /** A one-time link to the UI for `account` (what `hookscope open` and the serve banner print). */
  async issueLink(account: AccountContext): Promise<SignInCode> {
    const { code, expiresAt } = await this.deps.codes.issue(account);
    return { code, url: `${this.deps.urls.api}/#/sign-in/${code}`, expiresAt: isoTime(expiresAt) };
  }

  /**
   * Spends a code and starts a session for its account. The sessions of the
   * cookies the request carried end in the same write: switching accounts leaves
   * no live session behind in this browser. When one of them is another
   * account's, the code is left unspent and the answer is 409 naming both
   * accounts, unless `switchAccount` confirms the switch: a link someone else
   * sent must not quietly move a signed-in user into their account.
   */
  async redeem(
    code: string,
    replacing: readonly string[],
    switchAccount: boolean,
  ): Promise<{ sessionId: string; view: SessionView }> {
    const target = await this.deps.codes.peek(code);
    const signedInAs = switchAccount ? undefined : await this.otherAccount(target, replacing);
    if (signedInAs) {
      throw new ConflictError(
        `This sign-in link is for the account "${target.name}", and this browser is signed in as "${signedInAs.name}": ` +
          'send switchAccount: true to switch (the current session then ends).',
        'ACCOUNT_SWITCH_UNCONFIRMED',
        { signedInAs, account: { id: target.id, name: target.name } },
      );
    }
    const account = await this.deps.codes.redeem(code);
    const sessionId = this.deps.random.bytes(32).toString('base64url');
    const now = this.deps.clock.now();
    await this.deps.repo.insert(
      {
        idHash: secretHash(sessionId),
        accountId: account.id,
        accountName: account.name,
        createdAt: now,
        expiresAt: now + this.deps.sessionTtlMs,
      },
      replacing.map(secretHash),
      now,
    );
    return { sessionId, view: this.describe(account) };
  }

  /**
   * Spends a code for a bearer token instead of a cookie (`hookscope login`): a
   * client on another machine keeps the token. No session row: a token is checked
   * by its signature and expiry alone, on every instance.
   */
  async redeemForToken(code: string): Promise<IssuedToken> {
    const account = await this.deps.codes.redeem(code);
    const expiresAt = this.deps.clock.now() + this.deps.tokenTtlMs;
    const token = await this.deps.issueToken(account, this.deps.tokenTtlMs);
    return { token, accountId: account.id, account: account.name, expiresAt: isoTime(expiresAt) };
  }

  /** The account of a live session among `sessionIds` that is not `target`'s, if any. */
  private async otherAccount(
    target: AccountContext,
    sessionIds: readonly string[],
  ): Promise<AccountContext | undefined> {
    const now = this.deps.clock.now();
    for (const id of sessionIds) {
      const s = await this.deps.repo.find(secretHash(id));
      if (s && s.expiresAt > now && s.accountId !== target.id) return { id: s.accountId, name: s.accountName };
    }
    return undefined;
  }

  async accountOf(sessionId: string): Promise<AccountContext> {
    const session = await this.deps.repo.find(secretHash(sessionId));
    if (!session) {
      throw new UnauthorizedError(
        'This session is not valid: it was signed out, or never existed on this engine. Sign in again with `npx hookscope open`.',
        'SESSION_INVALID',
      );
    }
    if (session.expiresAt <= this.deps.clock.now()) {
      throw new UnauthorizedError(
        'This session has expired: sign in again with `npx hookscope open`.',
        'TOKEN_EXPIRED',
      );
    }
    return { id: session.accountId, name: session.accountName };
  }

  /** Ends the sessions of these cookie values (unknown ones are ignored: signing out always succeeds). */
  async signOut(sessionIds: readonly string[]): Promise<void> {
    await this.deps.repo.delete(sessionIds.map(secretHash));
  }

  describe(account: AccountContext): SessionView {
    return { account: { id: account.id, name: account.name }, owner: isOwner(account, this.deps.owner) };
  }
}
