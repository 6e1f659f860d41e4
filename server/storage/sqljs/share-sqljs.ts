import type { ShareRepository } from '../../share/share-repository.ts';
import type { ShareRecord } from '../../share/share-types.ts';
import type { Store } from '../../store/store-types.ts';
import { SHARE_COLUMNS, shareFromRow, shareValues, type ShareRow } from '../rows/share-row.ts';

/** SQLite has no boolean: a flag is 0 or 1. */
const flag = (on: boolean): number => (on ? 1 : 0);

/** Share links in the embedded sql.js store (the share feature's sql.js migrations create the table and its trigger). */
export class SqljsShareRepository implements ShareRepository {
  constructor(private readonly store: Store) {}

  async replace(s: ShareRecord): Promise<void> {
    const values = shareValues(s, flag);
    // One record: the old token stops working in the same write that stores the new one.
    await this.store.write([
      { sql: 'DELETE FROM shares WHERE account_id = ? AND log_id = ?', params: [s.accountId, s.logId] },
      {
        sql: `INSERT INTO shares (${SHARE_COLUMNS}) VALUES (${values.map(() => '?').join(', ')})`,
        params: [...values],
      },
    ]);
  }

  async findByHash(tokenHash: string): Promise<ShareRecord | undefined> {
    const row = await this.store.get<ShareRow>(`SELECT ${SHARE_COLUMNS} FROM shares WHERE token_hash = ?`, [tokenHash]);
    return row ? shareFromRow(row) : undefined;
  }

  async findForLog(accountId: string, logId: string): Promise<ShareRecord | undefined> {
    const row = await this.store.get<ShareRow>(
      `SELECT ${SHARE_COLUMNS} FROM shares WHERE account_id = ? AND log_id = ?`,
      [accountId, logId],
    );
    return row ? shareFromRow(row) : undefined;
  }

  async deleteForLog(accountId: string, logId: string): Promise<void> {
    await this.store.write([
      { sql: 'DELETE FROM shares WHERE account_id = ? AND log_id = ?', params: [accountId, logId] },
    ]);
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.store.write([
      { sql: 'DELETE FROM shares WHERE account_id = ? AND endpoint_id = ?', params: [accountId, endpointId] },
    ]);
  }
}
