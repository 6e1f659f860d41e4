import type { MetricsRepository, RejectionCell, RejectionTally } from '../../metrics/metrics-repository.ts';
import type { PostgresDatabase } from './postgres-database.ts';

/**
 * Adds every tally in one statement. The SELECT sums tallies of the same cell
 * first (ON CONFLICT may touch a row once per statement) and orders them, so
 * two instances counting the same cells lock them in the same order and never
 * deadlock. `count + excluded.count` is computed on the locked row: a
 * concurrent call waits for it, then adds to the committed count, so none is lost.
 */
const COUNT_REJECTIONS = `INSERT INTO metrics_rejections (account_id, endpoint_id, minute, reason, count, last_at)
  SELECT account_id, endpoint_id, minute, reason, SUM(count), MAX(last_at)
  FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[])
    AS t (account_id, endpoint_id, minute, reason, count, last_at)
  GROUP BY account_id, endpoint_id, minute, reason
  ORDER BY account_id, endpoint_id, minute, reason
  ON CONFLICT (account_id, endpoint_id, minute, reason)
  DO UPDATE SET count = metrics_rejections.count + excluded.count,
    last_at = GREATEST(metrics_rejections.last_at, excluded.last_at)`;

// Nothing older than the longest window is ever read again; each account has its own cut.
const PRUNE = `DELETE FROM metrics_rejections m
  USING unnest($1::text[], $2::bigint[]) AS cut (account_id, before_ms)
  WHERE m.account_id = cut.account_id AND m.minute < cut.before_ms`;

/** Refusal counts in PostgreSQL (tables: metrics-migrations.ts). */
export class PostgresMetricsRepository implements MetricsRepository {
  constructor(private readonly db: PostgresDatabase) {}

  async countRejections(tallies: RejectionTally[], pruneBeforeMs: (accountId: string) => number): Promise<void> {
    if (tallies.length === 0) return;
    const accounts = [...new Set(tallies.map((t) => t.accountId))];
    // Committed means durable (PostgreSQL's synchronous_commit), which countRejections promises.
    await this.db.transaction(async (tx) => {
      await tx.query(COUNT_REJECTIONS, [
        tallies.map((t) => t.accountId),
        tallies.map((t) => t.endpointId),
        tallies.map((t) => t.minute),
        tallies.map((t) => t.reason),
        tallies.map((t) => t.count),
        tallies.map((t) => t.lastAt),
      ]);
      await tx.query(PRUNE, [accounts, accounts.map((a) => pruneBeforeMs(a))]);
    });
  }

  async rejections(
    accountId: string,
    fromMs: number,
    toMs: number,
    bucketMs: number,
    endpointId?: string,
  ): Promise<RejectionCell[]> {
    // bigint throughout, so pg answers numbers (SUM of bigint is numeric, hence its cast back).
    return this.db.query<RejectionCell>(
      `SELECT endpoint_id AS "endpointId", (minute - $2::bigint) / $4::bigint AS bucket, reason,
         SUM(count)::bigint AS count, MAX(last_at) AS "lastAt"
       FROM metrics_rejections
       WHERE account_id = $1 AND minute >= $2::bigint AND minute < $3::bigint
         AND ($5::text IS NULL OR endpoint_id = $5)
       GROUP BY endpoint_id, bucket, reason`,
      [accountId, fromMs, toMs, bucketMs, endpointId ?? null],
    );
  }
}
