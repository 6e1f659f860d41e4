import type { AccountContext } from '../auth/account-context.ts';
import type { SignInCodeRecord, SignInCodeRepository } from './sign-in-code-repository.ts';

interface Entry {
  account: AccountContext;
  expiresAt: number;
}

/**
 * The embedded backend's sign-in codes: in memory only, by hash. A restart
 * invalidates every code, which costs a user one more `hookscope open`, and no
 * file ever holds a working one.
 */
export class MemorySignInCodeRepository implements SignInCodeRepository {
  private readonly byHash = new Map<string, Entry>();

  async insert(code: SignInCodeRecord, now: number): Promise<void> {
    for (const [key, entry] of this.byHash) if (entry.expiresAt <= now) this.byHash.delete(key);
    this.byHash.set(code.codeHash, {
      account: { id: code.accountId, name: code.accountName },
      expiresAt: code.expiresAt,
    });
  }

  async find(codeHash: string, now: number): Promise<AccountContext | undefined> {
    return live(this.byHash.get(codeHash), now);
  }

  async take(codeHash: string, now: number): Promise<AccountContext | undefined> {
    const entry = this.byHash.get(codeHash);
    this.byHash.delete(codeHash);
    return live(entry, now);
  }
}

const live = (entry: Entry | undefined, now: number): AccountContext | undefined =>
  entry && entry.expiresAt > now ? { ...entry.account } : undefined;
