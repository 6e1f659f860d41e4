import type { SessionRecord } from '../../session/session-repository.ts';

/** A UI session as a table row, the same on both backends (no flag: every column is text or epoch ms). */
export interface SessionRow {
  id_hash: string;
  account_id: string;
  account_name: string;
  created_at: number;
  expires_at: number;
}

/** Every column, in the order sessionValues gives their values. */
export const SESSION_COLUMNS = 'id_hash, account_id, account_name, created_at, expires_at';

export const sessionFromRow = (r: SessionRow): SessionRecord => ({
  idHash: r.id_hash,
  accountId: r.account_id,
  accountName: r.account_name,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** The values of SESSION_COLUMNS. */
export const sessionValues = (s: SessionRecord) =>
  [s.idHash, s.accountId, s.accountName, s.createdAt, s.expiresAt] as const;
