import type { WriteAck, WriteReceipt } from '../store/store-types.ts';
import type {
  AnswerRecord,
  HeaderPairs,
  LogCursorQuery,
  LogQuery,
  LogStats,
  LogStatsQuery,
  LogStatus,
  NewLog,
  QueryObject,
} from './log-types.ts';
import type { LogVerification } from './logs-schemas.ts';

/** A stored log decoded into plain values, body included only when asked for. */
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

/**
 * Where stored deliveries live: what LogsService and LogActionsService need, whatever
 * the backend (server/storage/sqljs/logs-sqljs.ts, server/storage/postgres/logs-postgres.ts).
 * tests/contract/logs-contract.ts holds every backend to this contract.
 *
 * - Every read and write is scoped by account: another account's log is not found,
 *   exactly like a missing one (undefined, absent from a page, a search, `owned`), and
 *   a delete or pin naming it changes nothing and does not fail.
 * - Records come back exactly as written: strings byte for byte (U+0000 included;
 *   null and '' apart), numbers as numbers, flags as booleans, the body as a Buffer
 *   of exactly the bytes stored.
 * - Storage order is insert order: lists are newest first (pages after a cursor oldest
 *   first), retention evicts oldest first.
 * - The retention policy is the backend's (read at each insert): after an insert an
 *   account holds at most `maxLogsPerAccount` unpinned logs, the oldest unpinned
 *   going first; and once its unpinned bodies weigh more than `maxBodyBytesPerAccount`,
 *   its oldest unpinned logs go until at most 90% of that is left. Pinned logs are
 *   never evicted and count in neither budget. Inserts the backend applies together
 *   (sql.js groups records) are weighed once, after the last of them.
 * - Deleting a log takes its body, its search rows and, when no other log of the
 *   account uses it, its custom answer; what other features keep for a log (shares,
 *   analyses, replay history, queued forwards) follows it by their own mechanism
 *   (sql.js triggers, PostgreSQL foreign keys ON DELETE CASCADE).
 */
export interface LogsRepository {
  /**
   * Stores a capture under a new id: the log, its body, its custom answer (once per
   * account and content), its search rows, and the retention it brings, as one atomic
   * write. `ack` says when the promise resolves: `durable` once nothing can lose the
   * write (sql.js: journaled; its worker applies it afterwards, and `settled` says when),
   * `applied` once readable (sql.js: applied by the worker). PostgreSQL resolves only
   * after COMMIT for both, with `settled` already settled.
   *
   * An id already stored is refused: nothing of the second insert is stored and the
   * first log stays exactly as it was. The refusal rejects the promise where the write
   * is applied before it resolves (`applied`, and every PostgreSQL insert); a sql.js
   * `durable` write was acknowledged before, and its store reports the failed record.
   */
  insert(id: string, log: NewLog, ack: WriteAck): Promise<WriteReceipt>;

  /**
   * A page of the account's logs passing every filter of `q`, newest first, without
   * bodies, and how many pass them all: the page and its total describe the same
   * logs, however many writes run meanwhile. `search` keeps the logs whose path,
   * raw headers (as their JSON text) or body contain it as SQLite's
   * `LIKE '%search%'` matched them (server/logs/like-text.ts: ASCII-only case folding,
   * `%` and `_` literal, a text ending at its first U+0000).
   */
  page(accountId: string, q: LogQuery): Promise<{ rows: StoredLog[]; total: number }>;

  /**
   * The account's logs passing the filters of `q` that arrived after the log `q.after`
   * (storage order, not ids or times: on PostgreSQL an account's inserts queue on its
   * row lock, so a later seq is a later commit), oldest first, without bodies, and how
   * many such logs there are (the page's included), in one snapshot. The cursor log
   * need not pass the filters; undefined when the account has no log `q.after`
   * (never stored, deleted, evicted, another account's). A log deleted between two
   * pages never shifts the next one: it starts after the cursor, wherever that is.
   */
  pageAfter(accountId: string, q: LogCursorQuery): Promise<{ rows: StoredLog[]; total: number } | undefined>;

  /** The log with its body and answer, or undefined when the account has no such log. */
  find(accountId: string, id: string): Promise<StoredLogWithAnswer | undefined>;

  /** The log without its body, or undefined when the account has no such log. */
  findSummary(accountId: string, id: string): Promise<StoredLog | undefined>;

  /**
   * Aggregates for metrics over the account's logs received in [fromMs, toMs), in
   * buckets of bucketMs counted from fromMs: counts per endpoint and bucket (non-empty
   * cells, by endpoint id then bucket), failed logs by verification reason ('unknown'
   * when none; most first, ties by reason), and the sizes sent (`size`): min, max,
   * average and the nearest-rank p50 and p95 (server/support/percentile.ts). Always
   * the same figures as statsFromLogs for the same logs; a backend may read them
   * from aggregates it keeps (sql.js does for whole-hour windows).
   */
  stats(accountId: string, q: LogStatsQuery): Promise<LogStats>;

  /** The stats computed from every log in the window: stats()'s reference. */
  statsFromLogs(accountId: string, q: LogStatsQuery): Promise<LogStats>;

  /** Which of these ids name a log of the account, with its endpoint (one read however many ids; no order). */
  owned(accountId: string, ids: readonly string[]): Promise<{ id: string; endpointId: string }[]>;

  /** What a clear of the endpoint would take: its unpinned logs' ids, oldest first, and how many are pinned. */
  clearable(accountId: string, endpointId: string): Promise<{ unpinnedIds: string[]; pinned: number }>;

  /** Deletes the account's logs among these ids (any number) in one write, with what goes with them (above). */
  deleteByIds(accountId: string, ids: readonly string[]): Promise<void>;

  /** Pins or unpins the account's log; a pinned log leaves the retention budgets, an unpinned one joins them. */
  setPinned(accountId: string, id: string, pinned: boolean): Promise<void>;

  /** Deletes every log of the account's endpoint, pinned ones too (the endpoint is going), in one write. */
  deleteForEndpoint(accountId: string, endpointId: string): Promise<void>;
}
