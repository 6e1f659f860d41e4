/** One UI session as the store keeps it: the hash of its id, never the id. */
export interface SessionRecord {
  idHash: string;
  accountId: string;
  accountName: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Where UI sessions are stored: what SessionService needs, whatever the backend
 * (server/storage/sqljs/session-sqljs.ts, server/storage/postgres/session-postgres.ts).
 * tests/contract/session-contract.ts holds every backend to this contract.
 *
 * A session is found by the hash of its id alone (the cookie is the credential,
 * so no account scopes the read), exactly as inserted, epoch ms as numbers. An
 * expired session is still found until a later `insert` prunes it: the service
 * judges expiry from `expiresAt`.
 */
export interface SessionRepository {
  /**
   * Adds `s`, and in the same atomic write deletes every session (of any
   * account) whose `expiresAt` is at or before `now` and the sessions whose
   * hashes are in `replaced` (the cookies a switch of account ends). When the
   * insert fails (its hash is taken), nothing is pruned or ended either.
   */
  insert(s: SessionRecord, replaced: readonly string[], now: number): Promise<void>;

  /** The session whose id hashes to `idHash`, or undefined. */
  find(idHash: string): Promise<SessionRecord | undefined>;

  /** Ends the sessions of these hashes; unknown ones, and an empty list, change nothing and do not fail. */
  delete(idHashes: readonly string[]): Promise<void>;
}
