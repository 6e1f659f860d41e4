import type { ShareRecord } from './share-types.ts';

/**
 * Where share links are stored: what ShareService needs, whatever the backend
 * (server/storage/sqljs/share-sqljs.ts, server/storage/postgres/share-postgres.ts).
 * tests/contract/share-contract.ts holds every backend to this contract.
 *
 * A log has at most one live link: its account's `replace` swaps the old one for
 * the new in one atomic step, so the old token stops working the moment the new
 * one exists, and two replaces racing each other (two instances) both succeed,
 * leaving one of them. Records come back exactly as written (flags as booleans,
 * epoch ms as numbers). `findByHash` spans accounts: the token is the credential,
 * and an expired link is still found (the service answers 410 from `expiresAt`).
 * Every other read and delete is scoped by account: another account's link is
 * never found or removed.
 *
 * A link lives no longer than its log: deleting the log (retention, a user's
 * delete) removes its link in the same write. In sql.js the share feature's
 * trigger `shares_follow_logs` (server/share/share-migrations.ts) does it; in
 * PostgreSQL the foreign key `shares.log_id REFERENCES logs (id) ON DELETE CASCADE`.
 * So `replace` needs its log to exist on PostgreSQL (the service reads the log first).
 */
export interface ShareRepository {
  /** Stores `s` as its log's link, replacing the earlier one of that account and log, if any, atomically. */
  replace(s: ShareRecord): Promise<void>;

  /** The link whose token hashes to `tokenHash`, of any account, expired or not; undefined when none. */
  findByHash(tokenHash: string): Promise<ShareRecord | undefined>;

  /** The link of `accountId`'s log `logId`, or undefined (another account's included). */
  findForLog(accountId: string, logId: string): Promise<ShareRecord | undefined>;

  /** Revokes the link of `accountId`'s log `logId`; none, or another account's, changes nothing and does not fail. */
  deleteForLog(accountId: string, logId: string): Promise<void>;

  /** Revokes every link of `accountId`'s endpoint `endpointId`; other endpoints' and accounts' stay. */
  deleteForEndpoint(accountId: string, endpointId: string): Promise<void>;
}
