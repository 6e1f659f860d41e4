import type { ShareRecord } from '../../share/share-types.ts';

/**
 * A share link as a table row, the same on both backends: the columns, their
 * order, and the record read from and written to them. A backend keeps only its
 * SQL and its flag type: sql.js stores `redact` and `redact_path` as 0/1,
 * PostgreSQL as boolean.
 */
export interface ShareRow {
  token_hash: string;
  account_id: string;
  log_id: string;
  endpoint_id: string;
  redact: number | boolean;
  redact_path: number | boolean;
  created_at: number;
  expires_at: number;
}

/** Every column, in the order shareValues gives their values. */
export const SHARE_COLUMNS = 'token_hash, account_id, log_id, endpoint_id, redact, redact_path, created_at, expires_at';

const isSet = (v: number | boolean): boolean => v === true || v === 1;

export const shareFromRow = (r: ShareRow): ShareRecord => ({
  tokenHash: r.token_hash,
  accountId: r.account_id,
  logId: r.log_id,
  endpointId: r.endpoint_id,
  redact: isSet(r.redact),
  redactPath: isSet(r.redact_path),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** The values of SHARE_COLUMNS, with the backend's flag. */
export const shareValues = <Flag>(s: ShareRecord, flag: (on: boolean) => Flag) =>
  [
    s.tokenHash,
    s.accountId,
    s.logId,
    s.endpointId,
    flag(s.redact),
    flag(s.redactPath),
    s.createdAt,
    s.expiresAt,
  ] as const;
