import { createHash } from 'node:crypto';
import type { CustomResponse } from '../endpoints/custom-response.ts';
import type { SqlValue, Store, WriteAck, WriteOp, WriteReceipt } from '../store/store-types.ts';
import type {
  AnswerRecord,
  HeaderPairs,
  LogQuery,
  LogStats,
  LogStatsQuery,
  LogStatus,
  NewLog,
  QueryObject,
} from './log-types.ts';
import { storedBodies, searchLogs, type LogFilter } from './log-search.ts';
import type { LogVerification } from './logs-schemas.ts';
import { searchIndexOp } from './search-index.ts';
import { logStats, statsFromLogs } from './log-stats-queries.ts';

export interface LogRow {
  seq: number;
  id: string;
  account_id: string;
  endpoint_id: string;
  method: string;
  path: string;
  query: string;
  raw_headers: string;
  content_type: string | null;
  size: number;
  declared_size: number | null;
  stored_size: number;
  truncated: number;
  source_ip: string | null;
  received_at: number;
  duration_ms: number;
  status: string;
  verification: string;
  pinned: number;
  event_type: string | null;
  body?: Uint8Array | null;
  /** Only where the query reads the answer (find). */
  answer_status?: number | null;
  answer_message?: string | null;
  answer_custom_json?: string | null;
}

/** A row decoded into plain values, body included only when asked for. */
export interface StoredLog {
  id: string;
  accountId: string;
  endpointId: string;
  method: string;
  path: string;
  query: QueryObject;
  rawHeaders: HeaderPairs;
  contentType: string | null;
  size: number;
  declaredSize: number | null;
  storedSize: number;
  truncated: boolean;
  sourceIp: string | null;
  receivedAt: number;
  durationMs: number;
  status: LogStatus;
  verification: LogVerification;
  pinned: boolean;
  eventType: string | null;
  body: Buffer | null;
}

/** One log as the detail reads it: with its body and what the receiver answered (null: stored before that was kept). */
export interface StoredLogWithAnswer extends StoredLog {
  answer: AnswerRecord | null;
}

/**
 * Both budgets hold per account, so one account's traffic never evicts another's logs.
 * They weigh unpinned logs only: pinned logs are never evicted and are kept on top of
 * the budgets (so pinning many can take an account past them), and they leave the
 * budgets whole for new deliveries, which pinned logs could otherwise evict on arrival.
 */
export interface RetentionPolicy {
  maxLogsPerAccount: number;
  maxBodyBytesPerAccount: number;
}

const SUMMARY_COLUMNS = `l.seq, l.id, l.account_id, l.endpoint_id, l.method, l.path, l.query, l.raw_headers,
  l.content_type, l.size, l.declared_size, l.stored_size, l.truncated, l.source_ip, l.received_at, l.duration_ms, l.status, l.verification, l.pinned,
  l.event_type`;

const INSERT_LOG = `INSERT INTO logs (id, account_id, endpoint_id, method, path, query, raw_headers, content_type,
  size, declared_size, stored_size, truncated, source_ip, received_at, duration_ms, status, verification, event_type,
  answer_status, answer_message, answer_custom)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
// Once per account and content; a log names it by key (the logs_answers migration).
const INSERT_CUSTOM_ANSWER = 'INSERT OR IGNORE INTO log_custom_answers (account_id, key, answer) VALUES (?, ?, ?)';
// The body itself is spilled to the store's blob files; its location is bound as ?3.
const INSERT_BODY = `INSERT INTO log_bodies (log_seq, body, length, location)
  VALUES ((SELECT seq FROM logs WHERE id = ?1), X'', ?2, ?3)`;
/** Where find() gets a body: the blob files when the row has a location, else the inline column. */
const BODY_BLOB = { location: 'body_location', length: 'body_length', into: 'body' } as const;

// Oldest unpinned first beyond the per-account limit of unpinned logs; the LIMIT is 0 (no
// work) while under it. The logs_by_pinned index (account_id, pinned, seq) starts the scan
// at the oldest unpinned log, however many pinned ones are older.
const EVICT_OVER_COUNT = `DELETE FROM logs WHERE seq IN (
  SELECT seq FROM logs WHERE account_id = ?1 AND pinned = 0 ORDER BY seq
  LIMIT MAX(0, COALESCE((SELECT count - pinned_count FROM log_stats WHERE account_id = ?1), 0) - ?2))`;

// Over the account's body budget (unpinned bodies), evict that account's oldest unpinned logs until 90% of the budget
// is left, so the window scan runs once per 10% of the budget written, not on every delivery.
// While under budget the inner LIMIT is 0, which SQLite checks before reading a row: a
// WHERE on the subquery's constant was not enough (measured: it still ran the window over
// every log, ~1 ms per insert at 30,000 logs; with the LIMIT ~30 us, flat).
// The logs_by_pinned index (account_id, pinned, seq) serves the scan in order.
const ACCOUNT_BYTES = '(SELECT COALESCE(bytes - pinned_bytes, 0) FROM log_stats WHERE account_id = ?1)';
const EVICT_OVER_BYTES = `DELETE FROM logs WHERE seq IN (
  SELECT seq FROM (
    SELECT seq, SUM(stored_size) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
    FROM logs WHERE account_id = ?1 AND pinned = 0 ORDER BY seq
    LIMIT CASE WHEN COALESCE(${ACCOUNT_BYTES}, 0) > ?2 THEN -1 ELSE 0 END)
  WHERE COALESCE(before, 0) < ${ACCOUNT_BYTES} - ?3)`;

export class LogsRepository {
  /** A custom response's stored form, worked out once per endpoint version (the receiver passes the same object). */
  private readonly customAnswers = new WeakMap<CustomResponse, { key: string; json: string }>();

  constructor(
    private readonly store: Store,
    /** Read at each insert: Settings may change the budgets while the engine runs. */
    private readonly retention: () => RetentionPolicy,
  ) {}

  /**
   * Inserts a capture, with retention as coalesced ops: the store's worker evicts once
   * per group of records it applies (in the same transaction), not after each insert.
   */
  async insert(id: string, log: NewLog, ack: WriteAck): Promise<WriteReceipt> {
    const retention = this.retention();
    const custom = log.answer.custom ? this.customAnswer(log.answer.custom) : null;
    const ops: WriteOp[] = [
      ...(custom ? [{ sql: INSERT_CUSTOM_ANSWER, params: [log.accountId, custom.key, custom.json] }] : []),
      {
        sql: INSERT_LOG,
        params: [
          id,
          log.accountId,
          log.endpointId,
          log.method,
          log.path,
          JSON.stringify(log.query),
          JSON.stringify(log.rawHeaders),
          log.contentType,
          log.size,
          log.declaredSize,
          log.body.length,
          log.truncated ? 1 : 0,
          log.sourceIp,
          log.receivedAt,
          log.durationMs,
          log.status,
          JSON.stringify(log.verification),
          log.eventType,
          log.answer.status,
          log.answer.message,
          custom?.key ?? null,
        ],
      },
      { sql: INSERT_BODY, params: [id, log.body.length], spill: log.body },
      searchIndexOp(id, log.path, JSON.stringify(log.rawHeaders), log.body),
      { sql: EVICT_OVER_COUNT, params: [log.accountId, retention.maxLogsPerAccount], coalesce: true },
      {
        sql: EVICT_OVER_BYTES,
        params: [log.accountId, retention.maxBodyBytesPerAccount, Math.floor(retention.maxBodyBytesPerAccount * 0.9)],
        coalesce: true,
      },
    ];
    return this.store.write(ops, ack);
  }

  async page(accountId: string, q: LogQuery): Promise<{ rows: StoredLog[]; total: number }> {
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
    if (q.pinned !== undefined) {
      where.push('l.pinned = ?');
      params.push(q.pinned ? 1 : 0);
    }
    const whereSql = where.join(' AND ');
    if (q.search) return this.searchPage({ where: whereSql, params }, q.search, q);
    // One batch: as two reads, a delivery applied between them made the total disagree with the page.
    const [rows, count] = await this.store.batch([
      {
        sql: `SELECT ${SUMMARY_COLUMNS} FROM logs l WHERE ${whereSql} ORDER BY l.seq DESC LIMIT ? OFFSET ?`,
        params: [...params, q.limit, q.offset],
      },
      { sql: `SELECT COUNT(*) AS n FROM logs l WHERE ${whereSql}`, params, one: true },
    ]);
    return { rows: (rows as unknown as LogRow[]).map(decode), total: Number(count?.n ?? 0) };
  }

  /**
   * A search page: the matching seqs (log-search.ts), then the page's rows by seq. A log
   * deleted or changed out of the filters since the matches were taken is dropped from
   * the matches and the total, so a page always agrees with its total.
   */
  private async searchPage(
    filter: LogFilter,
    search: string,
    q: LogQuery,
  ): Promise<{ rows: StoredLog[]; total: number }> {
    const matches = await searchLogs(this.store, filter, search, storedBodies(this.store));
    for (;;) {
      const wanted = matches.slice(q.offset, q.offset + q.limit);
      if (wanted.length === 0) return { rows: [], total: matches.length };
      const rows = await this.store.all<LogRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM json_each(?) j CROSS JOIN logs l ON l.seq = j.value
         WHERE ${filter.where} ORDER BY l.seq DESC`,
        [JSON.stringify(wanted), ...filter.params],
      );
      if (rows.length === wanted.length) return { rows: rows.map(decode), total: matches.length };
      const present = new Set(rows.map((r) => r.seq));
      for (const seq of wanted) if (!present.has(seq)) matches.splice(matches.indexOf(seq), 1);
    }
  }

  async find(accountId: string, id: string): Promise<StoredLogWithAnswer | undefined> {
    const row = await this.store.get<LogRow>(
      `SELECT ${SUMMARY_COLUMNS}, b.body, b.location AS body_location, b.length AS body_length,
         l.answer_status, l.answer_message, c.answer AS answer_custom_json
       FROM logs l LEFT JOIN log_bodies b ON b.log_seq = l.seq
         LEFT JOIN log_custom_answers c ON c.account_id = l.account_id AND c.key = l.answer_custom
       WHERE l.id = ? AND l.account_id = ?`,
      [id, accountId],
      BODY_BLOB,
    );
    return row ? { ...decode(row), answer: decodeAnswer(row) } : undefined;
  }

  /**
   * Aggregates for metrics over [fromMs, toMs) in buckets of bucketMs. A window made of
   * whole UTC hours in whole-hour buckets (24h, 7d, 30d) reads what the logs_hourly
   * migration keeps (per-hour rows and two indexes); any other (1h, in minutes) reads the
   * logs. Both give exactly the same figures (tests/unit/logs/logs-stats-hourly.test.ts).
   */
  async stats(accountId: string, q: LogStatsQuery): Promise<LogStats> {
    return logStats(this.store, accountId, q);
  }

  /** The stats from every log in the window (log-stats-queries.ts): short windows, and the tests' reference. */
  statsFromLogs(accountId: string, q: LogStatsQuery): Promise<LogStats> {
    return statsFromLogs(this.store, accountId, q);
  }

  /** The log without its body, or undefined when the account has no such log. */
  async findSummary(accountId: string, id: string): Promise<StoredLog | undefined> {
    const row = await this.store.get<LogRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM logs l WHERE l.id = ? AND l.account_id = ?`,
      [id, accountId],
    );
    return row ? decode(row) : undefined;
  }

  /** Which of these ids name a log of the account, with its endpoint (one read, however many ids). */
  async owned(accountId: string, ids: readonly string[]): Promise<{ id: string; endpointId: string }[]> {
    const rows = await this.store.all<{ id: string; endpoint_id: string }>(
      'SELECT id, endpoint_id FROM logs WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))',
      [accountId, JSON.stringify(ids)],
    );
    return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id }));
  }

  /** What a clear of the endpoint would take: its unpinned logs' ids, oldest first, and how many are pinned. */
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
   * Deletes the account's logs among these ids in one write; the triggers that follow
   * logs take their shares, analyses, replay history and queued forwards along.
   * The ids go as one JSON parameter, so any number fits one statement.
   */
  async deleteByIds(accountId: string, ids: readonly string[]): Promise<void> {
    const where = 'l.account_id = ? AND l.id IN (SELECT value FROM json_each(?))';
    const params = [accountId, JSON.stringify(ids)];
    await this.store.write([wipeBodies(where, params), { sql: `DELETE FROM logs AS l WHERE ${where}`, params }]);
  }

  async setPinned(accountId: string, id: string, pinned: boolean): Promise<void> {
    await this.store.write([
      { sql: 'UPDATE logs SET pinned = ? WHERE id = ? AND account_id = ?', params: [pinned ? 1 : 0, id, accountId] },
    ]);
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    const where = 'l.account_id = ? AND l.endpoint_id = ?';
    const params = [accountId, endpointId];
    await this.store.write([wipeBodies(where, params), { sql: `DELETE FROM logs AS l WHERE ${where}`, params }]);
  }

  private customAnswer(response: CustomResponse): { key: string; json: string } {
    let stored = this.customAnswers.get(response);
    if (!stored) {
      const json = JSON.stringify(response);
      stored = { key: createHash('sha256').update(json).digest('base64url'), json };
      this.customAnswers.set(response, stored);
    }
    return stored;
  }
}

/**
 * Deleted on purpose (not evicted by retention): the bodies are overwritten in the
 * blob files at once, so they are in no file after the next checkpoint, like the
 * rows (secure_delete) and the journal segments holding them.
 */
function wipeBodies(where: string, params: SqlValue[]): WriteOp {
  return {
    sql: `SELECT b.location, b.length FROM logs l JOIN log_bodies b ON b.log_seq = l.seq
          WHERE ${where} AND b.location IS NOT NULL`,
    params,
    wipe: true,
  };
}

function decode(r: LogRow): StoredLog {
  return {
    id: r.id,
    accountId: r.account_id,
    endpointId: r.endpoint_id,
    method: r.method,
    path: r.path,
    query: JSON.parse(r.query) as QueryObject,
    rawHeaders: JSON.parse(r.raw_headers) as HeaderPairs,
    contentType: r.content_type,
    size: r.size,
    declaredSize: r.declared_size,
    storedSize: r.stored_size,
    truncated: r.truncated === 1,
    sourceIp: r.source_ip,
    receivedAt: r.received_at,
    durationMs: r.duration_ms,
    status: r.status as LogStatus,
    verification: JSON.parse(r.verification) as LogVerification,
    pinned: r.pinned === 1,
    eventType: r.event_type,
    body: r.body ? Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength) : null,
  };
}

function decodeAnswer(r: LogRow): AnswerRecord | null {
  if (r.answer_status === null || r.answer_status === undefined) return null;
  return {
    status: r.answer_status,
    message: r.answer_message ?? null,
    custom: r.answer_custom_json ? (JSON.parse(r.answer_custom_json) as CustomResponse) : null,
  };
}
