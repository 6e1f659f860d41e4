/**
 * Where accounts are stored: what AccountsService needs, whatever the backend
 * (server/storage/sqljs/accounts-sqljs.ts, server/storage/postgres/accounts-postgres.ts).
 * tests/contract/accounts-contract.ts holds every backend to this contract.
 *
 * An account is created on first use (AccountsService.ensure), possibly by two
 * requests or two engine instances at once, so inserting is idempotent.
 */
export interface AccountsRepository {
  /**
   * Stores the account unless one with this id exists. An existing account keeps
   * its name and createdAt (a second insert with another name changes nothing)
   * and the call does not fail.
   */
  insertIfMissing(id: string, name: string, createdAt: number): Promise<void>;

  /** The id of every stored account, each once, in no particular order (the service keeps them as a set). */
  allIds(): Promise<string[]>;
}
