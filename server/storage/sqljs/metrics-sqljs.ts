import type { MetricsRepository, RejectionCell, RejectionTally } from '../../metrics/metrics-repository.ts';
import type { SqlValue, Store, WriteOp } from '../../store/store-types.ts';

const COUNT_REJECTIONS = `INSERT INTO metrics_rejections (account_id, endpoint_id, minute, reason, count, last_at)
  VALUES (?, ?, CAST(? AS INTEGER), ?, ?, CAST(? AS INTEGER))
  ON CONFLICT (account_id, endpoint_id, minute, reason)
  DO UPDATE SET count = count + excluded.count, last_at = MAX(last_at, excluded.last_at)`;

// Nothing older than the longest window is ever read again.
const PRUNE = 'DELETE FROM metrics_rejections WHERE account_id = ? AND minute < CAST(? AS INTEGER)';

/** Refusal counts in the embedded sql.js store (the metrics feature's sql.js migrations create the table). */
export class SqljsMetricsRepository implements MetricsRepository {
  constructor(private readonly store: Store) {}

  async countRejections(tallies: RejectionTally[], pruneBeforeMs: (accountId: string) => number): Promise<void> {
    const ops: WriteOp[] = tallies.map((t) => ({
      sql: COUNT_REJECTIONS,
      params: [t.accountId, t.endpointId, t.minute, t.reason, t.count, t.lastAt],
    }));
    for (const accountId of new Set(tallies.map((t) => t.accountId))) {
      ops.push({ sql: PRUNE, params: [accountId, pruneBeforeMs(accountId)] });
    }
    // `durable`: acknowledged once the journal holds the record, which the store applies whole.
    await this.store.write(ops, 'durable');
  }

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
