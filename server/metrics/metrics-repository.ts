import type { SqlValue, Store } from '../store/store-types.ts';

/** Rejections of one endpoint in one bucket (only non-empty cells). */
export interface RejectionCell {
  endpointId: string;
  bucket: number;
  count: number;
  lastAt: number;
}

const COUNT_REJECTION = `INSERT INTO metrics_rejections (account_id, endpoint_id, minute, count, last_at)
  VALUES (?, ?, CAST(? AS INTEGER), 1, CAST(? AS INTEGER))
  ON CONFLICT (account_id, endpoint_id, minute)
  DO UPDATE SET count = count + 1, last_at = MAX(last_at, excluded.last_at)`;

// Nothing older than the longest window is ever read again.
const PRUNE = 'DELETE FROM metrics_rejections WHERE account_id = ? AND minute < CAST(? AS INTEGER)';

export class MetricsRepository {
  constructor(private readonly store: Store) {}

  /**
   * Counts one rejection and drops the account's counts older than `pruneBeforeMs`,
   * in one journaled record. `durable`: the sender's 410 waits for the journal,
   * so an answered rejection is counted even after a crash.
   */
  async countRejection(accountId: string, endpointId: string, minuteMs: number, atMs: number, pruneBeforeMs: number): Promise<void> {
    await this.store.write(
      [
        { sql: COUNT_REJECTION, params: [accountId, endpointId, minuteMs, atMs] },
        { sql: PRUNE, params: [accountId, pruneBeforeMs] },
      ],
      'durable',
    );
  }

  /** Rejections in [fromMs, toMs) per endpoint and bucket (bucketMs a whole number of minutes, fromMs on a minute). */
  async rejections(accountId: string, fromMs: number, toMs: number, bucketMs: number, endpointId?: string): Promise<RejectionCell[]> {
    const params: SqlValue[] = [fromMs, bucketMs, accountId, fromMs, toMs];
    let filter = '';
    if (endpointId !== undefined) {
      filter = ' AND endpoint_id = ?';
      params.push(endpointId);
    }
    const rows = await this.store.all<{ endpoint_id: string; bucket: number; count: number; last_at: number }>(
      `SELECT endpoint_id, (minute - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS bucket,
         SUM(count) AS count, MAX(last_at) AS last_at
       FROM metrics_rejections
       WHERE account_id = ? AND minute >= CAST(? AS INTEGER) AND minute < CAST(? AS INTEGER)${filter}
       GROUP BY endpoint_id, bucket`,
      params,
    );
    return rows.map((r) => ({
      endpointId: r.endpoint_id,
      bucket: Number(r.bucket),
      count: Number(r.count),
      lastAt: Number(r.last_at),
    }));
  }
}
