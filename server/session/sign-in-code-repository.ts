import type { AccountContext } from '../auth/account-context.ts';

/** One sign-in code as it is kept: the hash of the code, never the code. */
export interface SignInCodeRecord {
  codeHash: string;
  accountId: string;
  accountName: string;
  expiresAt: number;
}

/**
 * Where one-time sign-in codes are kept: in this process's memory on the
 * desktop (memory-sign-in-codes.ts), in the database with PostgreSQL
 * (server/storage/postgres/sign-in-codes-postgres.ts), so a link one instance
 * issued signs in on any. tests/contract/sign-in-codes-contract.ts holds both
 * to this contract. A code is live while `now` is before its `expiresAt`.
 */
export interface SignInCodeRepository {
  /** Keeps `code`, and forgets every code expired at or before `now`. */
  insert(code: SignInCodeRecord, now: number): Promise<void>;

  /** The account of the code hashed `codeHash` if it is live at `now`; the code stays. */
  find(codeHash: string, now: number): Promise<AccountContext | undefined>;

  /**
   * The account of the code hashed `codeHash` if it is live at `now`; the code
   * is gone after this call either way. Of several calls for one code, even on
   * several instances at once, one alone gets the account.
   */
  take(codeHash: string, now: number): Promise<AccountContext | undefined>;
}
