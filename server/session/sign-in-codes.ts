import type { AccountContext } from '../auth/account-context.ts';
import { UnauthorizedError } from '../errors/app-errors.ts';
import type { Clock } from '../support/clock.ts';
import type { Random } from '../support/random.ts';
import { secretHash } from './secret-hash.ts';
import type { SignInCodeRepository } from './sign-in-code-repository.ts';

/** How long a sign-in link works. */
export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;

/**
 * One-time codes for sign-in links (`hookscope open`), kept by hash wherever
 * the backend keeps them (sign-in-code-repository.ts).
 */
export class SignInCodes {
  constructor(
    private readonly repo: SignInCodeRepository,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  async issue(account: AccountContext): Promise<{ code: string; expiresAt: number }> {
    const code = this.random.bytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = now + SIGN_IN_CODE_TTL_MS;
    await this.repo.insert(
      { codeHash: secretHash(code), accountId: account.id, accountName: account.name, expiresAt },
      now,
    );
    return { code, expiresAt };
  }

  /** The code's account, leaving the code as it is (the UI asks before switching accounts). */
  async peek(code: string): Promise<AccountContext> {
    return live(await this.repo.find(secretHash(code), this.clock.now()));
  }

  /** The code's account; the code is gone after this call, whether it worked or not. */
  async redeem(code: string): Promise<AccountContext> {
    return live(await this.repo.take(secretHash(code), this.clock.now()));
  }
}

function live(account: AccountContext | undefined): AccountContext {
  if (!account) {
    throw new UnauthorizedError(
      'This sign-in link has expired or was already used: run `npx hookscope open` for a new one.',
      'SIGN_IN_CODE_INVALID',
    );
  }
  return account;
}
