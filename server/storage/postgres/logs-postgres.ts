import { likeMatchesBytes, likeTerm, type LikeTerm } from '../../logs/like-text.ts';
import { matchingBodies, type BodyCandidate, type BodyReader } from '../../logs/log-search.ts';
import type { LogCursorQuery, LogQuery, LogStats, LogStatsQuery, NewLog } from '../../logs/log-types.ts';
import type { LogsRepository, RetentionPolicy, StoredLog, StoredLogWithAnswer } from '../../logs/logs-repository.ts';
import {
  indexProbe,
  POSTGRES_MAX_INDEXED_BODY,
  probeCondition,
  SIGNATURE_COLUMNS,
  signatureWords,
} from '../../logs/search-index.ts';
import type { WriteAck, WriteReceipt } from '../../store/store-types.ts';
import { nearestRank } from '../../support/percentile.ts';
import {
  answerFromRow,
  CustomAnswerKeys,
  LOG_INSERT_COLUMNS,
  LOG_SUMMARY_COLUMNS,
  logFromRow,
  logInsertValues,
  type LogRow,
} from '../rows/log-row.ts';
import { fromFailureRow, fromGroups, withMinMax, type FailureRow, type StatsRow } from '../rows/log-stats-row.ts';
import { matchSql, viewPattern, type Bind } from './log-search-sql.ts';
import type { PostgresDatabase, Sql } from './postgres-database.ts';

/** PostgreSQL has a boolean type: a flag is written as it is. */
const flag = (on: boolean): boolean => on;
/** Outside text goes to `bytea` as its UTF-8 (logs-migrations.ts says why). */
const text = (s: string): Buffer => Buffer.from(s, 'utf8');

const WORDS = SIGNATURE_COLUMNS.length;
/** The types of the insert's columns: LOG_INSERT_COLUMNS', then verification_reason's. */
const LOG_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'bytea',
  'text',
  'text',
  'bytea',
  'bigint',
  'bigint',
  'bigint',
  'boolean',
  'bytea',
  'bigint',
  'bigint',
  'text',
  'text',
  'bytea',
  'integer',
  'bytea',
  'text',
  'text',
];

const BODIES = LOG_TYPES.length + 1;

/**
 * A group's logs in one statement, each column an array (one statement text whatever the
 * group's size, so PostgreSQL parses little): the logs, then their bodies and search rows
 * joined to the seqs the insert gave by id. Then the bodies (by the logs' order), then per
 * search row its log's id and its n, then every row's words one row after the other. The
 * foreign keys are checked at the statement's end, when the logs are there.
 */
const INSERT_GROUP = `WITH l AS (
    INSERT INTO logs (${LOG_INSERT_COLUMNS}, verification_reason)
    SELECT * FROM unnest(${LOG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) RETURNING id, seq),
  b AS (
    INSERT INTO log_bodies (log_seq, body)
    SELECT l.seq, x.body FROM unnest($1::text[], $${BODIES}::bytea[]) AS x (id, body) JOIN l USING (id))
  INSERT INTO log_search (log_seq, n, ${SIGNATURE_COLUMNS.join(', ')})
  SELECT l.seq, r.n, ${SIGNATURE_COLUMNS.map((_, i) => `w.words[(r.i - 1) * ${WORDS} + ${i + 1}]`).join(', ')}
  FROM unnest($${BODIES + 1}::text[], $${BODIES + 2}::int[]) WITH ORDINALITY AS r (id, n, i) JOIN l USING (id),
    (SELECT $${BODIES + 3}::bigint[] AS words) w`;

const INSERT_CUSTOM_ANSWERS = `INSERT INTO log_custom_answers (account_id, key, answer)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`;

/** Inserts written in one transaction at most: PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_GROUP = 500;

/** An insert waiting for its group's transaction. */
interface PendingInsert {
  id: string;
  accountId: string;
  /** LOG_INSERT_COLUMNS' values, then verification_reason. */
  values: readonly unknown[];
  body: Buffer;
  /** Its search rows, one after the other. */
  words: number[];
  custom: { key: string; json: string } | null;
  done: (err?: Error) => void;
}

// Oldest unpinned first beyond the per-account limit of unpinned logs (logs_by_pinned serves the scan).
const EVICT_OVER_COUNT = `DELETE FROM logs WHERE seq IN (
  SELECT seq FROM logs WHERE account_id = $1 AND NOT pinned ORDER BY seq
  LIMIT GREATEST(0, (SELECT logs FROM log_account_stats WHERE account_id = $1) - $2))`;

// Over the account's body budget ($2, unpinned bodies), its oldest unpinned logs go until at most $3 (90% of
// it) is left, as in sql.js: the window walks once per 10% of the budget written. Run only when over it.
const ACCOUNT_BYTES = '(SELECT bytes FROM log_account_stats WHERE account_id = $1)';
const EVICT_OVER_BYTES = `DELETE FROM logs WHERE ${ACCOUNT_BYTES} > $2 AND seq IN (
  SELECT seq FROM (
    SELECT seq, sum(stored_size) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS bytes_before
    FROM logs WHERE account_id = $1 AND NOT pinned) w
  WHERE COALESCE(bytes_before, 0) < ${ACCOUNT_BYTES} - $3)`;

/** Reads that must see one state of the database (a page and its total, a search and its rows, the stats). */
const SNAPSHOT = 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY';

/**
 * Logs in PostgreSQL (tables: logs-migrations.ts).
 *
 * Every write to an account's logs runs in one transaction that first locks the
 * account's row of log_account_stats (lockAccount), so concurrent writers of one
 * account queue there: the counts the triggers keep stay exact, retention weighs
 * what the writers before it left, and no two writers meet in the opposite order
 * on the logs' rows (a delete and an eviction of the same log would deadlock).
 */
export class PostgresLogsRepository implements LogsRepository {
  private readonly customAnswers = new CustomAnswerKeys();

  constructor(
    private readonly db: PostgresDatabase,
    /** Read at each insert: Settings may change the budgets while the engine runs. */
    private readonly retention: () => RetentionPolicy,
  ) {}

  /** Inserts that came while a group's transaction was in flight: they go together in the next. */
  private queue: PendingInsert[] = [];
  private writing = false;

  /**
   * Batched per instance: inserts that come while a transaction is in flight are written
   * together in the next one (one COMMIT, so one WAL flush, for the group), each log with
   * its body, search rows and custom answer, then retention per account. Resolves after
   * that COMMIT whatever `ack` asks: nothing is deferred, so `settled` is too. When a
   * group fails, each of its inserts is tried again alone, so only one that fails on its
   * own is rejected (a duplicate id: logs.id is UNIQUE) and the others are stored once.
   */
  async insert(id: string, log: NewLog, _ack: WriteAck): Promise<WriteReceipt> {
    const custom = log.answer.custom ? this.customAnswers.of(log.answer.custom) : null;
    const words = signatureWords(log.path, JSON.stringify(log.rawHeaders), log.body, POSTGRES_MAX_INDEXED_BODY).flat();
    const values = [...logInsertValues(id, log, custom?.key ?? null, flag, text), log.verification.reason];
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => (err === undefined ? resolve() : reject(err));
      this.queue.push({ id, accountId: log.accountId, values, body: log.body, words, custom, done });
      if (!this.writing) void this.writeQueued();
    });
    return { settled: Promise.resolve() };
  }

  /** Writes groups until none is waiting; never throws (each failure goes to its callers). */
  private async writeQueued(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) await this.writeGroup(this.queue.splice(0, MAX_GROUP));
    } finally {
      this.writing = false;
    }
  }

  private async writeGroup(group: PendingInsert[]): Promise<void> {
    try {
      await this.db.transaction((tx) => this.insertGroup(tx, group));
      for (const p of group) p.done();
    } catch (err) {
      if (group.length === 1) return group[0]!.done(failure(err));
      for (const p of group) {
        await this.db
          .transaction((tx) => this.insertGroup(tx, [p]))
          .then(
            () => p.done(),
            (e: unknown) => p.done(failure(e)),
          );
      }
    }
  }

  /**
   * Locks every account of the group in id order (so two instances' groups never wait on
   * each other in opposite orders), inserts, then applies each account's retention, each
   * eviction only when the account's counts say it is over a budget.
   */
  private async insertGroup(tx: Sql, group: readonly PendingInsert[]): Promise<void> {
    const retention = this.retention();
    const added = new Map<string, { logs: number; bytes: number }>();
    for (const p of group) {
      const a = added.get(p.accountId) ?? { logs: 0, bytes: 0 };
      added.set(p.accountId, { logs: a.logs + 1, bytes: a.bytes + p.body.length });
    }
    const accounts = [...added.keys()].sort();
    const before = new Map<string, { logs: number; bytes: number }>();
    for (const accountId of accounts) before.set(accountId, await lockAccount(tx, accountId, true));

    const searchIds: string[] = [];
    const searchNs: number[] = [];
    for (const p of group) {
      for (let n = 0; n < p.words.length / WORDS; n++) {
        searchIds.push(p.id);
        searchNs.push(n);
      }
    }
    await tx.query(
      INSERT_GROUP,
      [
        ...LOG_TYPES.map((_, i) => group.map((p) => p.values[i])),
        group.map((p) => p.body),
        searchIds,
        searchNs,
        group.flatMap((p) => p.words),
      ],
      'hookscope_logs_insert_group',
    );
    // Once per account and key: a group may hold several logs answered with the same custom response.
    const customs = [
      ...new Map(group.filter((p) => p.custom !== null).map((p) => [`${p.accountId}\n${p.custom!.key}`, p])).values(),
    ];
    if (customs.length > 0) {
      await tx.query(INSERT_CUSTOM_ANSWERS, [
        customs.map((p) => p.accountId),
        customs.map((p) => p.custom!.key),
        customs.map((p) => p.custom!.json),
      ]);
    }

    for (const accountId of accounts) {
      const was = before.get(accountId)!;
      const more = added.get(accountId)!;
      const overCount = was.logs + more.logs > retention.maxLogsPerAccount;
      if (overCount) await tx.query(EVICT_OVER_COUNT, [accountId, retention.maxLogsPerAccount]);
      if (overCount || was.bytes + more.bytes > retention.maxBodyBytesPerAccount) {
        await tx.query(EVICT_OVER_BYTES, [
          accountId,
          retention.maxBodyBytesPerAccount,
          Math.floor(retention.maxBodyBytesPerAccount * 0.9),
        ]);
      }
    }
  }

  async page(accountId: string, q: LogQuery): Promise<{ rows: StoredLog[]; total: number }> {
    const { whereSql, params } = logFilter(accountId, q);
    if (q.search) return this.searchPage(whereSql, params, q.search, q);
    // One statement, so one snapshot: the total always counts the logs the page was taken from.
    const rows = await this.db.query<LogRow & { total: number }>(
      `WITH page AS (
         SELECT ${LOG_SUMMARY_COLUMNS} FROM logs l WHERE ${whereSql}
         ORDER BY l.seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2})
       SELECT page.*, t.total FROM (SELECT count(*) AS total FROM logs l WHERE ${whereSql}) t
         LEFT JOIN page ON true
       ORDER BY page.seq DESC`,
      [...params, q.limit, q.offset],
    );
    return { rows: rows.filter((r) => r.seq !== null).map(logFromRow), total: rows[0]?.total ?? 0 };
  }

  /** One statement, so one snapshot: the cursor, the page and the total. */
  async pageAfter(accountId: string, q: LogCursorQuery): Promise<{ rows: StoredLog[]; total: number } | undefined> {
    const { whereSql, params } = logFilter(accountId, q);
    const after = `l.seq > (SELECT seq FROM cursor)`;
    const rows = await this.db.query<LogRow & { total: number; cursor_seq: number | null }>(
      `WITH cursor AS (SELECT seq FROM logs WHERE id = $${params.length + 1} AND account_id = $1),
       page AS (
         SELECT ${LOG_SUMMARY_COLUMNS} FROM logs l WHERE ${whereSql} AND ${after}
         ORDER BY l.seq LIMIT $${params.length + 2})
       SELECT page.*, t.total, (SELECT seq FROM cursor) AS cursor_seq
       FROM (SELECT count(*) AS total FROM logs l WHERE ${whereSql} AND ${after}) t
         LEFT JOIN page ON true
       ORDER BY page.seq`,
      [...params, q.after, q.limit],
    );
    if (rows[0]?.cursor_seq === null || rows[0]?.cursor_seq === undefined) return undefined;
    return { rows: rows.filter((r) => r.seq !== null).map(logFromRow), total: rows[0].total };
  }

  /**
   * A search page. The index (search-index.ts) gives the candidates, as in sql.js; the
   * exact check (like-text.ts) of their headers, path and body runs in the database for an
   * ASCII term (log-search-sql.ts), and here for any other.
   */
  private searchPage(
    whereSql: string,
    params: readonly unknown[],
    search: string,
    q: LogQuery,
  ): Promise<{ rows: StoredLog[]; total: number }> {
    const term = likeTerm(search);
    return term.ascii === null
      ? this.searchPageCheckedHere(whereSql, params, term, q)
      : this.searchPageInDatabase(whereSql, params, term, q);
  }

  /**
   * One statement, so one snapshot: the candidates (the signature probe's log seqs as an
   * array, which reads logs through its index in 30 ms where a semi-join's misestimated
   * nested loop took 50), those matched by headers or path, the others' bodies checked,
   * then the total and the page of the matches.
   */
  private async searchPageInDatabase(
    whereSql: string,
    params: readonly unknown[],
    term: LikeTerm,
    q: LogQuery,
  ): Promise<{ rows: StoredLog[]; total: number }> {
    const values = [...params];
    const bind: Bind = (value) => `$${values.push(value)}`;
    const probe = indexProbe(term);
    const masks = probeCondition(probe).params;
    // Every log has a search row (search-index.ts), so a term too short to probe has every log as a candidate.
    const candidates =
      probe.length === 0
        ? ''
        : ` AND l.seq = ANY(ARRAY(SELECT s.log_seq FROM log_search s WHERE ${probeCondition(probe, (i) => bind(masks[i])).sql}))`;
    // Headers are JSON text: valid UTF-8 without a raw U+0000, whose view is the text with A-Z
    // folded, which lower() under the C collation gives (it folds ASCII only).
    const headerHit = `lower(l.raw_headers COLLATE "C") LIKE ${bind(viewPattern(term))}`;
    const rows = await this.db.query<LogRow & { total: number }>(
      `WITH c AS MATERIALIZED (
         SELECT l.seq, ${headerHit} OR ${matchSql(term, 'l.path', bind)} AS hit
         FROM logs l
         WHERE ${whereSql}${candidates}),
       m AS MATERIALIZED (
         SELECT seq FROM c WHERE hit
         UNION ALL
         SELECT b.log_seq FROM log_bodies b
         WHERE b.log_seq = ANY(ARRAY(SELECT seq FROM c WHERE NOT hit)) AND ${matchSql(term, 'b.body', bind)})
       SELECT ${LOG_SUMMARY_COLUMNS}, t.total FROM (SELECT count(*) AS total FROM m) t
         LEFT JOIN (SELECT seq FROM m ORDER BY seq DESC LIMIT ${bind(q.limit)} OFFSET ${bind(q.offset)}) page ON true
         LEFT JOIN logs l ON l.seq = page.seq
       ORDER BY l.seq DESC`,
      values,
    );
    return { rows: rows.filter((r) => r.seq !== null).map(logFromRow), total: rows[0]?.total ?? 0 };
  }

  /**
   * A search page in one snapshot (so its rows and its total describe the same logs) for
   * a term the database cannot check exactly: the candidates' headers are matched in SQL,
   * their path and then the bodies of the others here, in bounded batches.
   */
  private searchPageCheckedHere(
    whereSql: string,
    params: readonly unknown[],
    term: LikeTerm,
    q: LogQuery,
  ): Promise<{ rows: StoredLog[]; total: number }> {
    return this.db.transaction(async (tx) => {
      await tx.query(SNAPSHOT);
      const probe = probeCondition(indexProbe(term), (i) => `$${params.length + 2 + i}`);
      const candidates = await tx.query<{ seq: number; path: Buffer; size: number; hit: boolean }>(
        `SELECT l.seq, l.path, l.stored_size AS size, lower(l.raw_headers COLLATE "C") LIKE $${params.length + 1} AS hit
         FROM logs l
         WHERE ${whereSql} AND EXISTS (SELECT 1 FROM log_search s WHERE s.log_seq = l.seq AND ${probe.sql})`,
        [...params, viewPattern(term), ...probe.params],
      );
      const hits: number[] = [];
      const others: BodyCandidate[] = [];
      for (const c of candidates) {
        if (c.hit || likeMatchesBytes(term, c.path)) hits.push(c.seq);
        else others.push({ seq: c.seq, size: c.size });
      }
      const matches = hits.concat(await matchingBodies(others, term, bodiesOf(tx))).sort((a, b) => b - a);
      const wanted = matches.slice(q.offset, q.offset + q.limit);
      const rows =
        wanted.length === 0
          ? []
          : await tx.query<LogRow>(
              `SELECT ${LOG_SUMMARY_COLUMNS} FROM logs l WHERE l.seq = ANY($1::bigint[]) ORDER BY l.seq DESC`,
              [wanted],
            );
      return { rows: rows.map(logFromRow), total: matches.length };
    });
  }

  /**
   * Prepared (named): planning the join again on each call took most of a 1 KB log's read (at
   * the repository, 100,000 logs, alternating: 0.27 ms p50 unprepared, 0.12 prepared). The
   * body comes as base64, not as bytea's hex text: a third fewer bytes to encode, send and
   * decode (a 64-256 KB body, 1 in 100 of the bench's, on a bare connection: 1.5-2.7 ms p50 as
   * hex, 1.2 as base64).
   */
  async find(accountId: string, id: string): Promise<StoredLogWithAnswer | undefined> {
    const [row] = await this.db.query<Omit<LogRow, 'body'> & { body_base64: string | null }>(
      `SELECT ${LOG_SUMMARY_COLUMNS}, encode(b.body, 'base64') AS body_base64, l.answer_status, l.answer_message,
         c.answer AS answer_custom_json
       FROM logs l LEFT JOIN log_bodies b ON b.log_seq = l.seq
         LEFT JOIN log_custom_answers c ON c.account_id = l.account_id AND c.key = l.answer_custom
       WHERE l.id = $1 AND l.account_id = $2`,
      [id, accountId],
      'hookscope_logs_find',
    );
    if (!row) return undefined;
    // PostgreSQL breaks base64 into lines of 76; Buffer's decoder skips the newlines.
    const body = row.body_base64 === null ? null : Buffer.from(row.body_base64, 'base64');
    return { ...logFromRow({ ...row, body }), answer: answerFromRow(row) };
  }

  /**
   * Computed from the logs in the window, whatever its length, over logs_by_received_at
   * (whose INCLUDE columns spare the table). sql.js reads whole-hour windows from per-hour
   * rows instead; such rows may come here with the performance work (issue 23, numbers).
   */
  stats(accountId: string, q: LogStatsQuery): Promise<LogStats> {
    return this.statsFromLogs(accountId, q);
  }

  /** Three reads in one snapshot, so the counts, the reasons and the ranks describe the same logs. */
  statsFromLogs(accountId: string, q: LogStatsQuery): Promise<LogStats> {
    const params: unknown[] = [accountId, q.fromMs, q.toMs];
    if (q.endpointId !== undefined) params.push(q.endpointId);
    const whereSql = `account_id = $1 AND received_at >= $2 AND received_at < $3${q.endpointId === undefined ? '' : ' AND endpoint_id = $4'}`;
    const next = `$${params.length + 1}`;
    return this.db.transaction(async (tx) => {
      await tx.query(SNAPSHOT);
      // Endpoint ids and reasons in byte order (COLLATE "C"), as SQLite sorts them.
      const groups = await tx.query<StatsRow>(
        `SELECT endpoint_id, (received_at - $2) / ${next} AS bucket,
           count(*) FILTER (WHERE status = 'success') AS success, count(*) FILTER (WHERE status = 'failed') AS failed,
           max(received_at) AS last, count(*) AS n, min(size) AS min_size, max(size) AS max_size, sum(size) AS sum_size
         FROM logs WHERE ${whereSql}
         GROUP BY endpoint_id, bucket ORDER BY endpoint_id COLLATE "C", bucket`,
        [...params, q.bucketMs],
      );
      const failureReasons = await tx.query<FailureRow>(
        `SELECT reason, count FROM (
           SELECT COALESCE(verification_reason, 'unknown') AS reason, count(*) AS count
           FROM logs WHERE ${whereSql} AND status = 'failed' GROUP BY 1) r
         ORDER BY count DESC, reason COLLATE "C"`,
        params,
      );
      const { cells, sizes } = fromGroups(groups);
      withMinMax(sizes, groups);
      if (sizes.count > 0) {
        const rank = (r: string) =>
          `(SELECT size FROM logs WHERE ${whereSql} ORDER BY size OFFSET ${r}::bigint - 1 LIMIT 1)`;
        const [ranked] = await tx.query<{ p50: number; p95: number }>(
          `SELECT ${rank(next)} AS p50, ${rank(`$${params.length + 2}`)} AS p95`,
          [...params, nearestRank(0.5, sizes.count), nearestRank(0.95, sizes.count)],
        );
        sizes.p50 = ranked!.p50;
        sizes.p95 = ranked!.p95;
      }
      return { cells, failureReasons: failureReasons.map(fromFailureRow), sizes };
    });
  }

  async findSummary(accountId: string, id: string): Promise<StoredLog | undefined> {
    const [row] = await this.db.query<LogRow>(
      `SELECT ${LOG_SUMMARY_COLUMNS} FROM logs l WHERE l.id = $1 AND l.account_id = $2`,
      [id, accountId],
    );
    return row ? logFromRow(row) : undefined;
  }

  async owned(accountId: string, ids: readonly string[]): Promise<{ id: string; endpointId: string }[]> {
    const rows = await this.db.query<{ id: string; endpoint_id: string }>(
      'SELECT id, endpoint_id FROM logs WHERE account_id = $1 AND id = ANY($2::text[])',
      [accountId, ids],
    );
    return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id }));
  }

  async clearable(accountId: string, endpointId: string): Promise<{ unpinnedIds: string[]; pinned: number }> {
    const [row] = await this.db.query<{ unpinned: string[]; pinned: number }>(
      `SELECT COALESCE(array_agg(id ORDER BY seq) FILTER (WHERE NOT pinned), '{}') AS unpinned,
         count(*) FILTER (WHERE pinned) AS pinned
       FROM logs WHERE account_id = $1 AND endpoint_id = $2`,
      [accountId, endpointId],
    );
    return { unpinnedIds: row!.unpinned, pinned: row!.pinned };
  }

  /** The foreign keys take bodies and search rows; logs_released releases custom answers and counts. */
  async deleteByIds(accountId: string, ids: readonly string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockAccount(tx, accountId, false);
      await tx.query('DELETE FROM logs WHERE account_id = $1 AND id = ANY($2::text[])', [accountId, ids]);
    });
  }

  async setPinned(accountId: string, id: string, pinned: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockAccount(tx, accountId, false);
      await tx.query('UPDATE logs SET pinned = $1 WHERE id = $2 AND account_id = $3 AND pinned <> $1', [
        pinned,
        id,
        accountId,
      ]);
    });
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockAccount(tx, accountId, false);
      await tx.query('DELETE FROM logs WHERE account_id = $1 AND endpoint_id = $2', [accountId, endpointId]);
    });
  }
}

/**
 * Locks the account's counts row for the rest of the transaction and answers the counts
 * (unpinned logs and bytes). An insert creates the row when the account has none; other
 * writes need not (no row: the account has no logs to change).
 */
async function lockAccount(tx: Sql, accountId: string, create: boolean): Promise<{ logs: number; bytes: number }> {
  const lock = 'SELECT logs, bytes FROM log_account_stats WHERE account_id = $1 FOR UPDATE';
  const [row] = await tx.query<{ logs: number; bytes: number }>(lock, [accountId], 'hookscope_logs_lock_account');
  if (row || !create) return row ?? { logs: 0, bytes: 0 };
  // Two first inserts of an account at once: the second waits here for the first to commit, then locks its row.
  await tx.query('INSERT INTO log_account_stats (account_id) VALUES ($1) ON CONFLICT DO NOTHING', [accountId]);
  const [created] = await tx.query<{ logs: number; bytes: number }>(lock, [accountId]);
  return created!;
}

/** What pg rejects with is an Error; anything else is wrapped, so callers always get one. */
const failure = (e: unknown): Error => (e instanceof Error ? e : new Error('PostgreSQL insert failed', { cause: e }));

function bodiesOf(tx: Sql): BodyReader {
  return async (seqs) => {
    const rows = await tx.query<{ seq: number; body: Buffer }>(
      'SELECT log_seq AS seq, body FROM log_bodies WHERE log_seq = ANY($1::bigint[])',
      [seqs],
    );
    return new Map(rows.map((r) => [r.seq, r.body]));
  };
}

/** The account and the list filters other than search, as SQL over `logs l` and its parameters ($1 is the account). */
function logFilter(
  accountId: string,
  q: Omit<LogQuery, 'limit' | 'offset' | 'search'>,
): { whereSql: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  const where: string[] = ['l.account_id = $1'];
  const filter = (condition: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (q.endpointId) filter((p) => `l.endpoint_id = ${p}`, q.endpointId);
  if (q.status) filter((p) => `l.status = ${p}`, q.status);
  if (q.eventType !== undefined) filter((p) => `l.event_type = ${p}`, text(q.eventType));
  if (q.pinned !== undefined) filter((p) => `l.pinned = ${p}`, q.pinned);
  return { whereSql: where.join(' AND '), params };
}
