import type { LogCursorQuery, LogQuery, LogStats, LogStatsQuery, NewLog } from '../../logs/log-types.ts';
import type { LogsRepository, RetentionPolicy, StoredLog, StoredLogWithAnswer } from '../../logs/logs-repository.ts';
import type { ReadQuery, SqlValue, Store, WriteAck, WriteOp, WriteReceipt } from '../../store/store-types.ts';
import {
  answerFromRow,
  CustomAnswerKeys,
  LOG_INSERT_COLUMNS,
  logFromRow,
  logSummaryColumns,
  logInsertValues,
  type LogRow,
} from '../rows/log-row.ts';
import { searchLogs, type LogFilter } from './log-search-sqljs.ts';
import { logStats, statsFromLogs } from './log-stats-sqljs.ts';
import { STORED_HEADERS } from './stored-headers-sqljs.ts';

const SUMMARY = logSummaryColumns(STORED_HEADERS);

/** SQLite has no boolean: a flag is 0 or 1. */
const flag = (on: boolean): number => (on ? 1 : 0);
/** SQLite's text holds U+0000: outside text is stored as it is. */
const text = (s: string): string => s;

// The headers' JSON and the body are one spilled value, headers first (stored-headers-sqljs.ts):
// the row keeps the headers' length (?22) and location (?23, bound last by the worker), and
// raw_headers is left empty.
const INSERT_LOG = `INSERT INTO logs (${LOG_INSERT_COLUMNS}, headers_length, headers_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
/** logInsertValues' index of the headers' JSON. */
const RAW_HEADERS = 6;
// Once per account and content; a log names it by key (the logs_answers migration).
const INSERT_CUSTOM_ANSWER = 'INSERT OR IGNORE INTO log_custom_answers (account_id, key, answer) VALUES (?, ?, ?)';
// The body is in the blob files right after the headers the log's insert spilled.
const INSERT_BODY = `INSERT INTO log_bodies (log_seq, body, length, location)
  SELECT seq, X'', ?2, headers_at + headers_length FROM logs WHERE id = ?1`;
/** Where find() gets a body: the blob files when the row has a location, else the inline column. */
const BODY_BLOB = { location: 'body_location', length: 'body_length', into: 'body' } as const;

// Oldest unpinned first beyond the per-account limit of unpinned logs; the LIMIT is 0 (no
// work) while under it. logs_by_account (account_id, seq, pinned) gives the account's logs
// oldest first and steps over the pinned ones in the index (the logs_pinned_only migration).
const EVICT_OVER_COUNT = `DELETE FROM logs WHERE seq IN (
  SELECT seq FROM logs WHERE account_id = ?1 AND pinned = 0 ORDER BY seq
  LIMIT MAX(0, COALESCE((SELECT count - pinned_count FROM log_stats WHERE account_id = ?1), 0) - ?2))`;

// Whether each eviction is due: a lookup of the account's counts row, so the DELETE
// (hundreds of us even when it deletes nothing) runs only when it has work (WriteOp.when).
const OVER_COUNT = 'SELECT count - pinned_count > ?2 FROM log_stats WHERE account_id = ?1';
const OVER_BYTES = 'SELECT bytes - pinned_bytes > ?2 FROM log_stats WHERE account_id = ?1';

// Over the account's body budget (unpinned bodies), evict that account's oldest unpinned logs until 90% of the budget
// is left, so the window scan runs once per 10% of the budget written, not on every delivery.
// While under budget the inner LIMIT is 0, which SQLite checks before reading a row: a
// WHERE on the subquery's constant was not enough (measured: it still ran the window over
// every log, ~1 ms per insert at 30,000 logs; with the LIMIT ~30 us, flat).
// logs_by_account serves the scan in order.
const ACCOUNT_BYTES = '(SELECT COALESCE(bytes - pinned_bytes, 0) FROM log_stats WHERE account_id = ?1)';
const EVICT_OVER_BYTES = `DELETE FROM logs WHERE seq IN (
  SELECT seq FROM (
    SELECT seq, SUM(stored_size) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
    FROM logs WHERE account_id = ?1 AND pinned = 0 ORDER BY seq
    LIMIT CASE WHEN COALESCE(${ACCOUNT_BYTES}, 0) > ?2 THEN -1 ELSE 0 END)
  WHERE COALESCE(before, 0) < ${ACCOUNT_BYTES} - ?3)`;

/**
 * Logs in the embedded sql.js store (the logs feature's sql.js migrations create the
 * tables). Bodies are spilled to the store's blob files; log_stats, kept by triggers,
 * counts each account's logs and bytes so retention needs no COUNT scan.
 */
export class SqljsLogsRepository implements LogsRepository {
  private readonly customAnswers = new CustomAnswerKeys();

  constructor(
    private readonly store: Store,
    /** Read at each insert: Settings may change the budgets while the engine runs. */
    private readonly retention: () => RetentionPolicy,
    /**
     * Told of each log inserted: its search index rows are written in the background
     * (search-backfill.ts), so the insert carries only the row every probe passes.
     */
    private readonly stored?: () => void,
  ) {}

  /**
   * Inserts a capture, with retention as coalesced ops: the store's worker evicts once
   * per group of records it applies (in the same transaction), not after each insert.
   * A duplicate id fails the record on the logs.id UNIQUE constraint: the store rolls
   * the whole record back, so the first log, its body and its index rows stay.
   */
  async insert(id: string, log: NewLog, ack: WriteAck): Promise<WriteReceipt> {
    const retention = this.retention();
    const custom = log.answer.custom ? this.customAnswers.of(log.answer.custom) : null;
    const values: SqlValue[] = [...logInsertValues(id, log, custom?.key ?? null, flag, text)];
    const headers = Buffer.from(String(values[RAW_HEADERS]));
    values[RAW_HEADERS] = '';
    const ops: WriteOp[] = [
      ...(custom ? [{ sql: INSERT_CUSTOM_ANSWER, params: [log.accountId, custom.key, custom.json] }] : []),
      { sql: INSERT_LOG, params: [...values, headers.length], spill: Buffer.concat([headers, log.body]) },
      { sql: INSERT_BODY, params: [id, log.body.length] },
      {
        sql: EVICT_OVER_COUNT,
        params: [log.accountId, retention.maxLogsPerAccount],
        coalesce: true,
        when: { sql: OVER_COUNT, params: [log.accountId, retention.maxLogsPerAccount] },
      },
      {
        sql: EVICT_OVER_BYTES,
        params: [log.accountId, retention.maxBodyBytesPerAccount, Math.floor(retention.maxBodyBytesPerAccount * 0.9)],
        coalesce: true,
        when: { sql: OVER_BYTES, params: [log.accountId, retention.maxBodyBytesPerAccount] },
      },
    ];
    const receipt = await this.store.write(ops, ack);
    this.stored?.();
    return receipt;
  }

  async page(accountId: string, q: LogQuery): Promise<{ rows: StoredLog[]; total: number }> {
    const filter = logFilter(accountId, q);
    if (q.search) return this.searchPage(filter, q.search, q);
    // One batch: as two reads, a delivery applied between them made the total disagree with the page.
    const [rows, count] = await this.store.batch([
      {
        sql: `SELECT ${SUMMARY} FROM ${logsSource(q)} WHERE ${filter.where} ORDER BY l.seq DESC LIMIT ? OFFSET ?`,
        params: [...filter.params, q.limit, q.offset],
      },
      pageTotal(accountId, q),
    ]);
    return { rows: (rows as unknown as LogRow[]).map(logFromRow), total: Number(count?.n ?? 0) };
  }

  /** One batch, so the cursor, the page and the total are read in one state of the database. */
  async pageAfter(accountId: string, q: LogCursorQuery): Promise<{ rows: StoredLog[]; total: number } | undefined> {
    const filter = logFilter(accountId, q);
    const cursor = '(SELECT seq FROM logs WHERE id = ? AND account_id = ?)';
    const where = `${filter.where} AND l.seq > ${cursor}`;
    const params = [...filter.params, q.after, accountId];
    const [found, rows, count] = await this.store.batch([
      { sql: `SELECT ${cursor} AS seq`, params: [q.after, accountId], one: true },
      {
        sql: `SELECT ${SUMMARY} FROM logs l WHERE ${where} ORDER BY l.seq LIMIT ?`,
        params: [...params, q.limit],
      },
      { sql: `SELECT COUNT(*) AS n FROM logs l WHERE ${where}`, params, one: true },
    ]);
    if (found?.seq === null || found?.seq === undefined) return undefined;
    return { rows: (rows as unknown as LogRow[]).map(logFromRow), total: Number(count?.n ?? 0) };
  }

  /**
   * A search page: the matching seqs (log-search-sqljs.ts), then the page's rows by seq. A
   * log deleted or changed out of the filters since the matches were taken is dropped from
   * the matches and the total, so a page always agrees with its total.
   */
  private async searchPage(
    filter: LogFilter,
    search: string,
    q: LogQuery,
  ): Promise<{ rows: StoredLog[]; total: number }> {
    const matches = await searchLogs(this.store, filter, search);
    for (;;) {
      const wanted = matches.slice(q.offset, q.offset + q.limit);
      if (wanted.length === 0) return { rows: [], total: matches.length };
      const rows = await this.store.all<LogRow>(
        `SELECT ${SUMMARY} FROM json_each(?) j CROSS JOIN logs l ON l.seq = j.value
         WHERE ${filter.where} ORDER BY l.seq DESC`,
        [JSON.stringify(wanted), ...filter.params],
      );
      if (rows.length === wanted.length) return { rows: rows.map(logFromRow), total: matches.length };
      const present = new Set(rows.map((r) => r.seq));
      for (const seq of wanted) if (!present.has(seq)) matches.splice(matches.indexOf(seq), 1);
    }
  }

  async find(accountId: string, id: string): Promise<StoredLogWithAnswer | undefined> {
    const row = await this.store.get<LogRow>(
      `SELECT ${SUMMARY}, b.body, b.location AS body_location, b.length AS body_length,
         l.answer_status, l.answer_message, c.answer AS answer_custom_json
       FROM logs l LEFT JOIN log_bodies b ON b.log_seq = l.seq
         LEFT JOIN log_custom_answers c ON c.account_id = l.account_id AND c.key = l.answer_custom
       WHERE l.id = ? AND l.account_id = ?`,
      [id, accountId],
      BODY_BLOB,
    );
    return row ? { ...logFromRow(row), answer: answerFromRow(row) } : undefined;
  }

  /**
   * A window made of whole UTC hours in whole-hour buckets (24h, 7d, 30d) reads what the
   * logs_hourly migration keeps (per-hour rows and two indexes); any other (1h, in minutes)
   * reads the logs. Both give exactly the same figures (tests/unit/logs/logs-stats-hourly.test.ts).
   */
  async stats(accountId: string, q: LogStatsQuery): Promise<LogStats> {
    return logStats(this.store, accountId, q);
  }

  statsFromLogs(accountId: string, q: LogStatsQuery): Promise<LogStats> {
    return statsFromLogs(this.store, accountId, q);
  }

  async findSummary(accountId: string, id: string): Promise<StoredLog | undefined> {
    const row = await this.store.get<LogRow>(`SELECT ${SUMMARY} FROM logs l WHERE l.id = ? AND l.account_id = ?`, [
      id,
      accountId,
    ]);
    return row ? logFromRow(row) : undefined;
  }

  async owned(accountId: string, ids: readonly string[]): Promise<{ id: string; endpointId: string }[]> {
    const rows = await this.store.all<{ id: string; endpoint_id: string }>(
      'SELECT id, endpoint_id FROM logs WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))',
      [accountId, JSON.stringify(ids)],
    );
    return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id }));
  }

  async clearable(accountId: string, endpointId: string): Promise<{ unpinnedIds: string[]; pinned: number }> {
    const [rows, pinned] = await this.store.batch([
      {
        sql: 'SELECT id FROM logs WHERE account_id = ? AND endpoint_id = ? AND pinned = 0 ORDER BY seq',
        params: [accountId, endpointId],
      },
      {
        sql: 'SELECT COUNT(*) AS n FROM logs WHERE account_id = ? AND endpoint_id = ? AND pinned = 1',
        params: [accountId, endpointId],
        one: true,
      },
    ]);
    return { unpinnedIds: rows.map((r) => String(r.id)), pinned: Number(pinned?.n ?? 0) };
  }

  /**
   * The triggers that follow logs take their shares, analyses, replay history and queued
   * forwards along. The ids go as one JSON parameter, so any number fits one statement.
   */
  async deleteByIds(accountId: string, ids: readonly string[]): Promise<void> {
    const where = 'l.account_id = ? AND l.id IN (SELECT value FROM json_each(?))';
    const params = [accountId, JSON.stringify(ids)];
    await this.store.write([
      ...wipeStoredValues(where, params),
      { sql: `DELETE FROM logs AS l WHERE ${where}`, params },
    ]);
  }

  async setPinned(accountId: string, id: string, pinned: boolean): Promise<void> {
    await this.store.write([
      { sql: 'UPDATE logs SET pinned = ? WHERE id = ? AND account_id = ?', params: [flag(pinned), id, accountId] },
    ]);
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    const where = 'l.account_id = ? AND l.endpoint_id = ?';
    const params = [accountId, endpointId];
    await this.store.write([
      ...wipeStoredValues(where, params),
      { sql: `DELETE FROM logs AS l WHERE ${where}`, params },
    ]);
  }
}

/**
 * Where a page and its count read the logs. The pinned ones through logs_pinned, named: SQLite,
 * with no statistics, ranks it level with logs_by_account (both give the account's logs by seq,
 * and that one holds `pinned` too) and took the latter, which walks every log of the account
 * when none is pinned.
 */
function logsSource(q: LogQuery): string {
  return q.pinned === true ? 'logs l INDEXED BY logs_pinned' : 'logs l';
}

/** A read of one row holding a total, `n`. */
type TotalQuery = ReadQuery & { params: SqlValue[]; one: true };

/**
 * A page's total. Unpinned logs have no index of their own (the logs_pinned_only migration):
 * their total is the one without the pinned filter less the pinned ones, two counts through
 * indexes instead of a check of every row.
 */
function pageTotal(accountId: string, q: LogQuery): TotalQuery {
  if (q.pinned !== false) return accountTotal(accountId, q) ?? counted(accountId, q);
  const all = pageTotal(accountId, { ...q, pinned: undefined });
  const pinned = pageTotal(accountId, { ...q, pinned: true });
  return { sql: `SELECT (${all.sql}) - (${pinned.sql}) AS n`, params: [...all.params, ...pinned.params], one: true };
}

/** COUNT(*) of the page's filters. */
function counted(accountId: string, q: LogQuery): TotalQuery {
  const filter = logFilter(accountId, q);
  return { sql: `SELECT COUNT(*) AS n FROM ${logsSource(q)} WHERE ${filter.where}`, params: filter.params, one: true };
}

/**
 * The total of a page filtered by the account alone or with a status, from the account's counts
 * row (kept by triggers: the log_stats_failed migration), so it is read, not counted; undefined
 * for any other filter.
 */
function accountTotal(accountId: string, q: LogQuery): TotalQuery | undefined {
  // Named, not listed by exclusion, so a filter added to LogQuery later is counted, never ignored.
  const { limit: _limit, offset: _offset, search: _search, status, ...others } = q;
  if (Object.values(others).some((v) => v !== undefined)) return undefined;
  const n = !status ? 'count' : status === 'failed' ? 'failed_count' : 'count - failed_count';
  return {
    sql: `SELECT COALESCE((SELECT ${n} FROM log_stats WHERE account_id = ?), 0) AS n`,
    params: [accountId],
    one: true,
  };
}

/** The account and the list filters other than search, over `logs l`. */
function logFilter(accountId: string, q: Omit<LogQuery, 'limit' | 'offset' | 'search'>): LogFilter {
  const where: string[] = ['l.account_id = ?'];
  const params: SqlValue[] = [accountId];
  if (q.endpointId) {
    where.push('l.endpoint_id = ?');
    params.push(q.endpointId);
  }
  if (q.status) {
    where.push('l.status = ?');
    params.push(q.status);
  }
  if (q.eventType !== undefined) {
    where.push('l.event_type = ?');
    params.push(q.eventType);
  }
  // A literal, not a parameter: SQLite picks the partial index logs_pinned (WHERE pinned = 1)
  // only when the query's own text implies its condition.
  if (q.pinned !== undefined) where.push(q.pinned ? 'l.pinned = 1' : 'l.pinned = 0');
  return { where: where.join(' AND '), params };
}

/**
 * Deleted on purpose (not evicted by retention): the bodies and headers are overwritten
 * in the blob files at once, so they are in no file after the next checkpoint, like the
 * rows (secure_delete) and the journal segments holding them.
 */
function wipeStoredValues(where: string, params: SqlValue[]): WriteOp[] {
  return [
    {
      sql: `SELECT b.location, b.length FROM logs l JOIN log_bodies b ON b.log_seq = l.seq
          WHERE ${where} AND b.location IS NOT NULL`,
      params,
      wipe: true,
    },
    {
      sql: `SELECT l.headers_at, l.headers_length FROM logs l WHERE ${where} AND l.headers_at IS NOT NULL`,
      params,
      wipe: true,
    },
    // A large body's search signature (search-index-sqljs.ts) says which trigrams it held.
    {
      sql: `SELECT s.location, s.length FROM logs l JOIN log_search_spilled s ON s.log_seq = l.seq WHERE ${where}`,
      params,
      wipe: true,
    },
  ];
}
