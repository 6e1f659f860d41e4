import type { LogStats, LogStatsQuery } from '../../logs/log-types.ts';
import type { SqlValue, Store } from '../../store/store-types.ts';
import { nearestRank, nearestRankSql } from '../../support/percentile.ts';
import { fromFailureRow, fromGroups, withMinMax, type FailureRow, type StatsRow } from '../rows/log-stats-row.ts';

const HOUR_MS = 3_600_000;

/** The metrics' aggregates: whole-hour windows from the per-hour rows, any other from the logs. */
export function logStats(store: Store, accountId: string, q: LogStatsQuery): Promise<LogStats> {
  const wholeHours = q.fromMs % HOUR_MS === 0 && q.toMs % HOUR_MS === 0 && q.bucketMs % HOUR_MS === 0;
  return wholeHours ? statsFromHours(store, accountId, q) : statsFromLogs(store, accountId, q);
}

/**
 * The stats from every log in the window, all in SQL over the (account_id, received_at)
 * index and the window's rows: one grouped pass for counts and sizes per endpoint and
 * bucket, one for the failure reasons, and one sort of the sizes for the percentiles.
 * Millisecond times are bound as doubles by sql.js, hence the CASTs to keep the bucket
 * arithmetic in integers. Its cost grows with the logs in the window (about 200 ms
 * for 100,000), so only short windows come here.
 */
export async function statsFromLogs(store: Store, accountId: string, q: LogStatsQuery): Promise<LogStats> {
  const where = ['account_id = ?', 'received_at >= ?', 'received_at < ?'];
  const params: SqlValue[] = [accountId, q.fromMs, q.toMs];
  if (q.endpointId !== undefined) {
    where.push('endpoint_id = ?');
    params.push(q.endpointId);
  }
  const whereSql = where.join(' AND ');

  const groups = await store.all<StatsRow>(
    `SELECT endpoint_id, (received_at - CAST(? AS INTEGER)) / CAST(? AS INTEGER) AS bucket,
       SUM(status = 'success') AS success, SUM(status = 'failed') AS failed, MAX(received_at) AS last,
       COUNT(*) AS n, MIN(size) AS min_size, MAX(size) AS max_size, SUM(size) AS sum_size
     FROM logs WHERE ${whereSql} GROUP BY endpoint_id, bucket ORDER BY endpoint_id, bucket`,
    [q.fromMs, q.bucketMs, ...params],
  );
  const failureReasons = await store.all<FailureRow>(
    `SELECT ${FAILURE_REASON} AS reason, COUNT(*) AS count
     FROM logs WHERE ${whereSql} AND status = 'failed' GROUP BY reason ORDER BY count DESC, reason`,
    params,
  );

  const { cells, sizes } = fromGroups(groups);
  withMinMax(sizes, groups);
  if (sizes.count > 0) {
    const r50 = nearestRank(0.5, sizes.count);
    const r95 = nearestRank(0.95, sizes.count);
    const ranked = await store.all<{ rn: number; size: number }>(
      // Named: with no statistics SQLite walked the whole account in logs_by_size (it holds the size) instead
      // of the window's rows (measured at 100,000 logs: 7.8 ms against 0.3-0.9 for a 1h window).
      `SELECT rn, size FROM (SELECT size, ROW_NUMBER() OVER (ORDER BY size) AS rn FROM logs INDEXED BY logs_by_received_at WHERE ${whereSql})
       WHERE rn IN (?, ?)`,
      [...params, r50, r95],
    );
    for (const r of ranked) {
      if (Number(r.rn) === r50) sizes.p50 = Number(r.size);
      if (Number(r.rn) === r95) sizes.p95 = Number(r.size);
    }
  }
  return { cells, failureReasons: failureReasons.map(fromFailureRow), sizes };
}

/**
 * The stats of a whole-hour window from what the logs_hourly migration keeps: the cells from
 * log_hourly (one row per account, hour and endpoint: 3,600 for 30 days of 5 endpoints,
 * however many logs), the failure reasons by counting the entries of
 * logs_failed_by_reason, and the sizes from logs_by_size: min and max are the first
 * in-window entry from either end, and a percentile the entry at its nearest rank,
 * reached by an OFFSET that steps over index entries without sorting. One batch, so the
 * counts and the ranks describe the same logs.
 */
async function statsFromHours(store: Store, accountId: string, q: LogStatsQuery): Promise<LogStats> {
  const byEndpoint = q.endpointId === undefined ? '' : ' AND endpoint_id = ?4';
  const params: SqlValue[] = [accountId, q.fromMs, q.toMs];
  if (q.endpointId !== undefined) params.push(q.endpointId);
  const hours = `account_id = ?1 AND hour >= ?2 AND hour < ?3${byEndpoint}`;
  const logs = `FROM logs INDEXED BY logs_by_size
    WHERE account_id = ?1 AND received_at >= ?2 AND received_at < ?3${byEndpoint}`;
  const [groups, failureReasons, ranked] = await store.batch([
    {
      sql: `SELECT endpoint_id, (hour - CAST(?2 AS INTEGER)) / CAST(?${params.length + 1} AS INTEGER) AS bucket,
         SUM(success) AS success, SUM(failed) AS failed, MAX(last_received_at) AS last,
         SUM(n) AS n, SUM(sum_size) AS sum_size
       FROM log_hourly WHERE ${hours} GROUP BY endpoint_id, bucket ORDER BY endpoint_id, bucket`,
      params: [...params, q.bucketMs],
    },
    {
      // Over the account's failed logs in logs_failed_by_reason (reason order: no sort before the count).
      sql: `SELECT ${FAILURE_REASON} AS reason, COUNT(*) AS count FROM logs INDEXED BY logs_failed_by_reason
        WHERE account_id = ?1 AND status = 'failed' AND received_at >= ?2 AND received_at < ?3${byEndpoint}
        GROUP BY reason ORDER BY count DESC, reason`,
      params,
    },
    {
      // p95 is walked from the large end: n - rank entries instead of rank.
      sql: `WITH total (n) AS (SELECT COALESCE(SUM(n), 0) FROM log_hourly WHERE ${hours})
        SELECT (SELECT size ${logs} ORDER BY size LIMIT 1) AS min,
          (SELECT size ${logs} ORDER BY size DESC LIMIT 1) AS max,
          (SELECT size ${logs} ORDER BY size LIMIT 1 OFFSET (SELECT ${nearestRankSql(50, 'n')} - 1 FROM total)) AS p50,
          (SELECT size ${logs} ORDER BY size DESC LIMIT 1 OFFSET (SELECT n - ${nearestRankSql(95, 'n')} FROM total)) AS p95`,
      params,
      one: true,
    },
  ]);
  const { cells, sizes } = fromGroups(groups as unknown as StatsRow[]);
  if (sizes.count > 0 && ranked) {
    const size = (v: SqlValue | undefined): number | null => (v === null || v === undefined ? null : Number(v));
    sizes.min = size(ranked.min);
    sizes.max = size(ranked.max);
    sizes.p50 = size(ranked.p50);
    sizes.p95 = size(ranked.p95);
  }
  return { cells, failureReasons: (failureReasons as unknown as FailureRow[]).map(fromFailureRow), sizes };
}

/** What a failed log is counted under: logs_failed_by_reason (the logs_hourly migration) indexes this expression. */
const FAILURE_REASON = "COALESCE(json_extract(verification, '$.reason'), 'unknown')";
