import type { ShareRepository } from '../../share/share-repository.ts';
import type { ShareRecord } from '../../share/share-types.ts';
import { SHARE_COLUMNS, shareFromRow, shareValues, type ShareRow } from '../rows/share-row.ts';
import type { Sql } from './postgres-database.ts';

/** PostgreSQL has a boolean type: a flag is written as it is. */
const flag = (on: boolean): boolean => on;

/** Share links in PostgreSQL (tables: share-migrations.ts). */
export class PostgresShareRepository implements ShareRepository {
  constructor(private readonly db: Sql) {}

  async replace(s: ShareRecord): Promise<void> {
    const values = shareValues(s, flag);
    // One statement rather than sql.js's DELETE then INSERT: just as atomic, and two instances replacing one
    // log's link at once both succeed (the second waits on the row and overwrites it), where a DELETE then
    // INSERT transaction would fail the second on the unique index.
    await this.db.query(
      `INSERT INTO shares (${SHARE_COLUMNS}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (account_id, log_id) DO UPDATE SET
         token_hash = excluded.token_hash, endpoint_id = excluded.endpoint_id, redact = excluded.redact,
         redact_path = excluded.redact_path, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [...values],
    );
  }

  async findByHash(tokenHash: string): Promise<ShareRecord | undefined> {
    const [row] = await this.db.query<ShareRow>(`SELECT ${SHARE_COLUMNS} FROM shares WHERE token_hash = $1`, [
      tokenHash,
    ]);
    return row ? shareFromRow(row) : undefined;
  }

  async findForLog(accountId: string, logId: string): Promise<ShareRecord | undefined> {
    const [row] = await this.db.query<ShareRow>(
      `SELECT ${SHARE_COLUMNS} FROM shares WHERE account_id = $1 AND log_id = $2`,
      [accountId, logId],
    );
    return row ? shareFromRow(row) : undefined;
  }

  async deleteForLog(accountId: string, logId: string): Promise<void> {
    await this.db.query('DELETE FROM shares WHERE account_id = $1 AND log_id = $2', [accountId, logId]);
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.db.query('DELETE FROM shares WHERE account_id = $1 AND endpoint_id = $2', [accountId, endpointId]);
  }
}
