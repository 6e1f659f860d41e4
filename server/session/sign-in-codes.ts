import type { AccountContext } from '../auth/account-context.ts';
import { UnauthorizedError } from '../errors/app-errors.ts';
import type { Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { secretHash } from './secret-hash.ts';

/** How long a sign-in link works. */
export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;

interface Entry {
  account: AccountContext;
  expiresAt: number;
}

/**
 * One-time codes for sign-in links (`hookscope open`). Kept in memory only, by
 * hash: a restart invalidates every code, which costs a user one more
 * `hookscope open`, and no file ever holds a working one.
 */
export class SignInCodes {
  private readonly byHash = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  issue(account: AccountContext): { code: string; expiresAt: number } {
    this.prune();
    const code = this.random.bytes(32).toString('base64url');
    const expiresAt = this.clock.now() + SIGN_IN_CODE_TTL_MS;
    this.byHash.set(secretHash(code), { account, expiresAt });
    return { code, expiresAt };
  }

  /** The code's account, leaving the code as it is (the UI asks before switching accounts). */
  peek(code: string): AccountContext {
    return this.live(this.byHash.get(secretHash(code)));
  }

  /** The code's account; the code is gone after this call, whether it worked or not. */
  redeem(code: string): AccountContext {
    const key = secretHash(code);
    const entry = this.byHash.get(key);
    this.byHash.delete(key);
    return this.live(entry);
  }

  private live(entry: Entry | undefined): AccountContext {
    if (!entry || entry.expiresAt <= this.clock.now()) {
      throw new UnauthorizedError(
        'This sign-in link has expired or was already used: run `npx hookscope open` for a new one.',
        'SIGN_IN_CODE_INVALID',
      );
    }
    return entry.account;
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.byHash) if (entry.expiresAt <= now) this.byHash.delete(key);
  }
}
