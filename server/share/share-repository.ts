import type { Store } from '../store/store-types.ts';
import type { ShareRecord } from './share-types.ts';

interface ShareRow {
  token_hash: string;
  account_id: string;
  log_id: string;
  endpoint_id: string;
  redact: number;
  redact_path: number;
  created_at: number;
  expires_at: number;
}

const fromRow = (r: ShareRow): ShareRecord => ({
  tokenHash: r.token_hash,
  accountId: r.account_id,
  logId: r.log_id,
  endpointId: r.endpoint_id,
  redact: r.redact === 1,
  redactPath: r.redact_path === 1,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

export class ShareRepository {
  constructor(private readonly store: Store) {}

  /** Replaces the log's link, if any, in one atomic record: the old token stops working. */
  async replace(s: ShareRecord): Promise<void> {
    await this.store.write([
      { sql: 'DELETE FROM shares WHERE account_id = ? AND log_id = ?', params: [s.accountId, s.logId] },
      {
        sql: `INSERT INTO shares (token_hash, account_id, log_id, endpoint_id, redact, redact_path, created_at, expires_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        params: [
          s.tokenHash,
          s.accountId,
          s.logId,
          s.endpointId,
          s.redact ? 1 : 0,
          s.redactPath ? 1 : 0,
          s.createdAt,
          s.expiresAt,
        ],
      },
    ]);
  }

  async findByHash(tokenHash: string): Promise<ShareRecord | undefined> {
    const row = await this.store.get<ShareRow>('SELECT * FROM shares WHERE token_hash = ?', [tokenHash]);
    return row ? fromRow(row) : undefined;
  }

  async findForLog(accountId: string, logId: string): Promise<ShareRecord | undefined> {
    const row = await this.store.get<ShareRow>('SELECT * FROM shares WHERE account_id = ? AND log_id = ?', [
      accountId,
      logId,
    ]);
    return row ? fromRow(row) : undefined;
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
