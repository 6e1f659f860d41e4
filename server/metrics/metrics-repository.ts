import type { SqlValue, Store, WriteOp } from '../store/store-types.ts';

/** Rejections of one endpoint in one bucket for one reason (only non-empty cells). */
export interface RejectionCell {
  endpointId: string;
  bucket: number;
  reason: string;
  count: number;
  lastAt: number;
}

/** Rejections to add: `count` of them in one minute, the latest at `lastAt`. */
export interface RejectionTally {
  accountId: string;
  endpointId: string;
  minute: number;
  reason: string;
  count: number;
  lastAt: number;
}

const COUNT_REJECTIONS = `INSERT INTO metrics_rejections (account_id, endpoint_id, minute, reason, count, last_at)
  VALUES (?, ?, CAST(? AS INTEGER), ?, ?, CAST(? AS INTEGER))
  ON CONFLICT (account_id, endpoint_id, minute, reason)
  DO UPDATE SET count = count + excluded.count, last_at = MAX(last_at, excluded.last_at)`;

// Nothing older than the longest window is ever read again.
const PRUNE = 'DELETE FROM metrics_rejections WHERE account_id = ? AND minute < CAST(? AS INTEGER)';

export class MetricsRepository {
  constructor(private readonly store: Store) {}

  /**
   * Adds tallies and drops each account's counts older than `pruneBeforeMs`, in
   * one journaled record. `durable`: the sender's answer waits for the journal,
   * so an answered rejection is counted even after a crash.
   */
  async countRejections(tallies: RejectionTally[], pruneBeforeMs: (accountId: string) => number): Promise<void> {
    const ops: WriteOp[] = tallies.map((t) => ({
      sql: COUNT_REJECTIONS,
      params: [t.accountId, t.endpointId, t.minute, t.reason, t.count, t.lastAt],
    }));
    for (const accountId of new Set(tallies.map((t) => t.accountId))) {
      ops.push({ sql: PRUNE, params: [accountId, pruneBeforeMs(accountId)] });
    }
    await this.store.write(ops, 'durable');
  }

  /** Rejections in [fromMs, toMs) per endpoint, bucket and reason (bucketMs a whole number of minutes, fromMs on a minute). */
  async rejections(
    accountId: string,
    fromMs: number,
    toMs: number,
    bucketMs: number,
    endpointId?: string,
  ): Promise<RejectionCell[]> {
    const params: SqlValue[] = [fromMs, bucketMs, accountId, fromMs, toMs];
    let filter = '';
    if (endpointId !== undefined) {
      filter = ' AND endpoint_id = ?';
      params.push(endpointId);
    }
    const rows = await this.store.all<{
      endpoint_id: string;
      bucket: number;
      reason: string;
      count: number;
      last_at: number;
    }>(
      `SELECT endpoint_id, (minute - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS bucket, reason,
         SUM(count) AS count, MAX(last_at) AS last_at
       FROM metrics_rejections
       WHERE account_id = ? AND minute >= CAST(? AS INTEGER) AND minute < CAST(? AS INTEGER)${filter}
       GROUP BY endpoint_id, bucket, reason`,
      params,
    );
    return rows.map((r) => ({
      endpointId: r.endpoint_id,
      bucket: Number(r.bucket),
      reason: r.reason,
      count: Number(r.count),
      lastAt: Number(r.last_at),
    }));
  }
}
