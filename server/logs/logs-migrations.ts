import type { Migration } from '../store/store-types.ts';
import {
  MAX_INDEXED_BODY,
  ROWS_PER_LOG,
  SEARCH_INDEX_SQL,
  SEARCH_INDEX_TEMPORARY,
  SEARCH_INDEX_TO_AUX_SQL,
  SIGNATURE_COLUMNS,
  SPILLED_MAX_INDEXED_BODY,
  UNINDEXED_WORD,
} from './search-index.ts';

/**
 * Bodies live in their own table so list queries never page through them.
 * log_stats is kept by triggers so retention can tell cheaply (no COUNT scan)
 * whether an account is over its limit.
 */
export const logsMigrations: Migration[] = [
  {
    number: 1,
    legacyVersion: 3,
    name: 'logs',
    sql: `CREATE TABLE logs (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            endpoint_id TEXT NOT NULL,
            method TEXT NOT NULL,
            path TEXT NOT NULL,
            query TEXT NOT NULL,
            raw_headers TEXT NOT NULL,
            content_type TEXT,
            size INTEGER NOT NULL,
            stored_size INTEGER NOT NULL,
            truncated INTEGER NOT NULL,
            source_ip TEXT,
            received_at INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            status TEXT NOT NULL,
            verification TEXT NOT NULL
          );
          CREATE INDEX logs_by_account ON logs (account_id, seq);
          CREATE INDEX logs_by_endpoint ON logs (endpoint_id, seq);
          CREATE TABLE log_bodies (log_seq INTEGER PRIMARY KEY, body BLOB NOT NULL);
          CREATE TABLE log_stats (account_id TEXT PRIMARY KEY, count INTEGER NOT NULL, bytes INTEGER NOT NULL);
          CREATE TRIGGER logs_counted AFTER INSERT ON logs BEGIN
            INSERT INTO log_stats (account_id, count, bytes) VALUES (NEW.account_id, 1, NEW.stored_size)
              ON CONFLICT (account_id) DO UPDATE SET count = count + 1, bytes = bytes + NEW.stored_size;
          END;
          CREATE TRIGGER logs_uncounted AFTER DELETE ON logs BEGIN
            UPDATE log_stats SET count = count - 1, bytes = bytes - OLD.stored_size WHERE account_id = OLD.account_id;
            DELETE FROM log_bodies WHERE log_seq = OLD.seq;
          END;`,
  },
  {
    // Metrics aggregate by time within an account. Without this every stats query scans the
    // account; with endpoint_id, status and size in it too, the counting pass never reads the
    // table rows (measured at 100,000 logs: the 30-day stats take about half the time).
    number: 2,
    legacyVersion: 31,
    name: 'logs_by_received_at',
    sql: 'CREATE INDEX logs_by_received_at ON logs (account_id, received_at, endpoint_id, status, size);',
  },
  {
    // `size` is what arrived; a refused body's declared length is kept apart so neither is faked.
    number: 3,
    legacyVersion: 32,
    name: 'logs_declared_size',
    sql: 'ALTER TABLE logs ADD COLUMN declared_size INTEGER;',
  },
  {
    // Pinned logs are kept outside the retention budgets: log_stats counts them apart
    // (pinned_count, pinned_bytes) so retention weighs only the unpinned ones, without a
    // COUNT scan. Logs are always stored unpinned; only an UPDATE pins one. The index
    // lets eviction start at the oldest unpinned log (without it, every insert stepped
    // over the pinned ones, which are usually the oldest) and serves the `pinned` filter
    // and its count (measured at 100,000 logs: see docs/API.md "Deleting and pinning logs").
    number: 4,
    name: 'logs_pinned',
    sql: `ALTER TABLE logs ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
          ALTER TABLE log_stats ADD COLUMN pinned_count INTEGER NOT NULL DEFAULT 0;
          ALTER TABLE log_stats ADD COLUMN pinned_bytes INTEGER NOT NULL DEFAULT 0;
          CREATE INDEX logs_by_pinned ON logs (account_id, pinned, seq);
          CREATE TRIGGER logs_pin_counted AFTER UPDATE OF pinned ON logs WHEN NEW.pinned <> OLD.pinned BEGIN
            UPDATE log_stats
              SET pinned_count = pinned_count + CASE WHEN NEW.pinned = 1 THEN 1 ELSE -1 END,
                  pinned_bytes = pinned_bytes + CASE WHEN NEW.pinned = 1 THEN NEW.stored_size ELSE -NEW.stored_size END
              WHERE account_id = NEW.account_id;
          END;
          CREATE TRIGGER logs_pin_uncounted AFTER DELETE ON logs WHEN OLD.pinned = 1 BEGIN
            UPDATE log_stats SET pinned_count = pinned_count - 1, pinned_bytes = pinned_bytes - OLD.stored_size
              WHERE account_id = OLD.account_id;
          END;`,
  },
  {
    // The event a delivery names (server/logs/event-type.ts), derived once by the receiver.
    // Logs stored before this step keep null: deriving it here would mean a second
    // implementation in SQL (header names in any case inside raw_headers, GitHub's action,
    // Slack's inner event, the JSON and size checks) that could disagree with the first.
    // No index then: the filter was narrowed by the account's index like the status filter (see 11).
    number: 5,
    name: 'logs_event_type',
    sql: 'ALTER TABLE logs ADD COLUMN event_type TEXT;',
  },
  {
    // Bodies leave the in-memory database: the store appends each to its blob files
    // (server/store/blob-files.ts) and the row keeps the location and length, with an
    // empty `body`. At 100,000 logs of 1 KB that took the database from ~177 MB to
    // ~70 MB, and with it resident memory and every checkpoint's copy. Bodies stored
    // before this step stay in `body` (location null) until retention or a delete
    // removes them; reads take whichever the row has.
    number: 6,
    name: 'log_bodies_out_of_line',
    sql: `ALTER TABLE log_bodies ADD COLUMN location INTEGER;
          ALTER TABLE log_bodies ADD COLUMN length INTEGER;`,
  },
  {
    // Text search (server/logs/search-index.ts): trigram signatures of each log's path,
    // headers and body, written with the insert; the candidates they give are checked
    // exactly. Measured at 100,000 logs: a search took ~550 ms (LIKE over every body, twice:
    // page and count); with the index ~9 ms for a rare term, ~90 ms for one in 1 body of 8.
    // Logs already stored, and any stored without the index op, get a row every search
    // passes until the backfill (search-backfill.ts) indexes them.
    number: 7,
    name: 'log_search',
    sql: SEARCH_INDEX_SQL,
  },
  {
    // Metrics over 24 hours or more (LogsRepository.stats) read these instead of every log.
    // log_hourly counts and sums each (account, UTC hour, endpoint); triggers keep it exact
    // through inserts, retention, API deletes and any update of a counted column, and drop
    // a row with its last log. The hour's newest received_at cannot be un-maxed by a
    // counter: a delete that removes it looks the next one up, backwards from the hour's end
    // in logs_by_received_at (retention deletes oldest first, so this is rare and short).
    // logs_failed_by_reason holds only failed logs, ordered by the reason the stats group
    // by, so counting them needs neither the table nor a sort. logs_by_size keeps each
    // account's sizes in order: min, max and the nearest-rank percentiles are read by
    // stepping over index entries (OFFSET), with no sort, exact under any delete. Insert
    // cost and the designs measured against this one: docs/PERFORMANCE.md (issue 12).
    number: 8,
    name: 'logs_hourly',
    sql: `CREATE TABLE log_hourly (
            account_id TEXT NOT NULL,
            hour INTEGER NOT NULL,
            endpoint_id TEXT NOT NULL,
            n INTEGER NOT NULL,
            success INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            sum_size INTEGER NOT NULL,
            last_received_at INTEGER NOT NULL,
            PRIMARY KEY (account_id, hour, endpoint_id)
          ) WITHOUT ROWID;
          CREATE TRIGGER logs_hourly_counted AFTER INSERT ON logs BEGIN
            ${countHourly('NEW')}
          END;
          CREATE TRIGGER logs_hourly_uncounted AFTER DELETE ON logs BEGIN
            ${uncountHourly('OLD')}
          END;
          -- Nothing updates these columns today (only pinned changes); should anything do so, the row follows.
          CREATE TRIGGER logs_hourly_recounted AFTER UPDATE OF account_id, endpoint_id, received_at, status, size ON logs BEGIN
            ${uncountHourly('OLD')}
            ${countHourly('NEW')}
          END;
          INSERT INTO log_hourly (account_id, hour, endpoint_id, n, success, failed, sum_size, last_received_at)
            SELECT account_id, ${hourOf('received_at')} AS h, endpoint_id, COUNT(*), SUM(status = 'success'),
              SUM(status = 'failed'), SUM(size), MAX(received_at)
            FROM logs GROUP BY account_id, h, endpoint_id;
          CREATE INDEX logs_failed_by_reason
            ON logs (account_id, COALESCE(json_extract(verification, '$.reason'), 'unknown'), received_at, endpoint_id)
            WHERE status = 'failed';
          CREATE INDEX logs_by_size ON logs (account_id, size, received_at, endpoint_id);`,
  },
  {
    // What the receiver answered each delivery (sender-answers.ts), as far as the rest of the
    // row does not say it: the status sent, a refusal's sentence (it names a limit in force
    // then), and the endpoint's custom response when it was the answer, as it was then. Custom
    // responses are kept once per account and content (up to 64 KB of body and 50 headers each:
    // a copy per log could outweigh the logs), referenced by a hash, and go with their last log.
    // Logs stored before this step keep null: the detail rebuilds what it can (a verification
    // failure's 400) and says why it cannot for the rest.
    number: 9,
    name: 'logs_answers',
    sql: `ALTER TABLE logs ADD COLUMN answer_status INTEGER;
          ALTER TABLE logs ADD COLUMN answer_message TEXT;
          ALTER TABLE logs ADD COLUMN answer_custom TEXT;
          CREATE TABLE log_custom_answers (
            account_id TEXT NOT NULL,
            key TEXT NOT NULL,
            answer TEXT NOT NULL,
            PRIMARY KEY (account_id, key)
          ) WITHOUT ROWID;
          CREATE INDEX logs_by_custom_answer ON logs (account_id, answer_custom) WHERE answer_custom IS NOT NULL;
          CREATE TRIGGER logs_custom_answer_released AFTER DELETE ON logs WHEN OLD.answer_custom IS NOT NULL BEGIN
            DELETE FROM log_custom_answers WHERE account_id = OLD.account_id AND key = OLD.answer_custom
              AND NOT EXISTS (SELECT 1 FROM logs WHERE account_id = OLD.account_id AND answer_custom = OLD.answer_custom);
          END;`,
  },
  {
    // The search index is written in the background now (storage/sqljs/search-backfill.ts), not
    // with each insert: this index holds only the rows still to index, so the indexer finds
    // them without reading the table (a pass over 100,000 logs' rows when none is left).
    number: 10,
    name: 'log_search_unindexed',
    sql: `CREATE INDEX log_search_unindexed ON log_search (key) WHERE w0 = ${UNINDEXED_WORD};`,
  },
  {
    // List filters the other indexes left to row-by-row checks (issue 25, measured at 100,000
    // deliveries through the receiver). An event type walked every row of the account in its
    // page and its count when few or none matched (p95 65-68 ms); a status on one endpoint walked
    // all of that endpoint's rows when none matched (31 ms), and an endpoint's count read the
    // whole account's logs_by_size, the only covering index naming the endpoint. Each index
    // starts with the filters' equalities and then seq, so a page is read in order and stops at
    // its limit; the columns after seq let the counts and the other filters be checked in the
    // index. Measured through the repository on one store, without and with them (p50): an event
    // type 29 -> 1.3 ms, one matching nothing 64 -> 0.1 ms, a status on an endpoint with none
    // 14 -> 0.1 ms, an endpoint 9.4 -> 2.0 ms. They take 166 bytes a delivery (78 and 88), less
    // than the indexer's order saved in log_search (search-backfill.ts), and with step 12's
    // trigger 7.8 us of the store worker's 55 per delivery (log-insert.bench.ts's harness, at
    // 100,000 logs): the price of filters that stay fast at any store size.
    number: 11,
    name: 'logs_filter_indexes',
    sql: `CREATE INDEX logs_by_event_type ON logs (account_id, event_type, seq, status, endpoint_id);
          CREATE INDEX logs_by_endpoint_status ON logs (account_id, endpoint_id, status, seq);`,
  },
  {
    // The list's total for the account alone or with a status, read from the account's counts
    // row instead of counted (LogsRepository.page): a COUNT(*) steps over every matching index
    // entry, 85,000-100,000 of them for the unfiltered list or `status=success` at 100,000 logs
    // (6-15 ms). Failed logs are counted apart, like the pinned ones; the insert trigger upserts,
    // so it is right whichever of the insert triggers runs first.
    number: 12,
    name: 'log_stats_failed',
    sql: `ALTER TABLE log_stats ADD COLUMN failed_count INTEGER NOT NULL DEFAULT 0;
          UPDATE log_stats SET failed_count =
            (SELECT COUNT(*) FROM logs WHERE logs.account_id = log_stats.account_id AND status = 'failed');
          CREATE TRIGGER logs_failed_counted AFTER INSERT ON logs WHEN NEW.status = 'failed' BEGIN
            INSERT INTO log_stats (account_id, count, bytes, failed_count) VALUES (NEW.account_id, 0, 0, 1)
              ON CONFLICT (account_id) DO UPDATE SET failed_count = failed_count + 1;
          END;
          CREATE TRIGGER logs_failed_uncounted AFTER DELETE ON logs WHEN OLD.status = 'failed' BEGIN
            UPDATE log_stats SET failed_count = failed_count - 1 WHERE account_id = OLD.account_id;
          END;
          -- Nothing updates these columns today (only pinned changes); should anything do so, the count follows.
          CREATE TRIGGER logs_failed_recounted AFTER UPDATE OF account_id, status ON logs
            WHEN (OLD.status = 'failed') <> (NEW.status = 'failed') OR OLD.account_id <> NEW.account_id BEGIN
            UPDATE log_stats SET failed_count = failed_count - 1 WHERE account_id = OLD.account_id AND OLD.status = 'failed';
            INSERT INTO log_stats (account_id, count, bytes, failed_count) SELECT NEW.account_id, 0, 0, 1
              WHERE NEW.status = 'failed' ON CONFLICT (account_id) DO UPDATE SET failed_count = failed_count + 1;
          END;`,
  },
  {
    // The signatures of bodies over MAX_INDEXED_BODY (up to SPILLED_MAX_INDEXED_BODY), kept in the
    // blob files (search-index-sqljs.ts): such a log has a full row in log_search, which every probe
    // passes, and a search tests these rows before it reads the body. Logs stored before this step
    // with such a body go back to the indexer, which reads their bodies once and writes them.
    number: 13,
    name: 'log_search_spilled',
    sql: `CREATE TABLE log_search_spilled (log_seq INTEGER PRIMARY KEY, location INTEGER NOT NULL, length INTEGER NOT NULL);
          CREATE TRIGGER logs_search_spilled_deleted AFTER DELETE ON logs WHEN OLD.stored_size > ${MAX_INDEXED_BODY} BEGIN
            DELETE FROM log_search_spilled WHERE log_seq = OLD.seq;
          END;
          UPDATE log_search SET ${SIGNATURE_COLUMNS.map((c) => `${c} = ${UNINDEXED_WORD}`).join(', ')}
            WHERE key IN (SELECT seq * ${ROWS_PER_LOG} FROM logs
                          WHERE stored_size > ${MAX_INDEXED_BODY} AND stored_size <= ${SPILLED_MAX_INDEXED_BODY});`,
  },
  {
    // Pinned logs are few, yet logs_by_pinned (step 4) held an entry for every log: 44 bytes a
    // delivery at 100,000 logs, paid twice at a checkpoint's peak (issue 25). logs_pinned holds
    // only the pinned ones, with the other filters' columns, so a `pinned=true` page and its count,
    // alone or with a status, an endpoint or an event type, read pinned entries alone (SQLite
    // uses it only where the query says `pinned = 1` as a literal: LogsRepository.page writes it
    // so). The unpinned side goes through the other indexes, and a `pinned=false` total is the
    // total without it less the pinned ones. Retention's evictions walk logs_by_account from the
    // oldest and step over pinned logs; with `pinned` in that index (1 byte an entry: a 0 is
    // stored in the record header) they step over them in the index, not in the rows. Measured
    // on the seeded 100,000-log store with pinned logs at the oldest end, the eviction's scan for
    // 32 logs (median): 2,000 pinned 30 us with logs_by_pinned, 270-510 us through the rows, 125 us
    // in the index; 10,000 pinned 30, 1,700-2,400 and 550 us; none pinned 26-41 us each. The
    // eviction's DELETE of those 32 logs costs 3-20 ms. The bytes-budget eviction reads every
    // unpinned row's stored_size either way.
    number: 14,
    name: 'logs_pinned_only',
    sql: `DROP INDEX logs_by_pinned;
          CREATE INDEX logs_pinned ON logs (account_id, seq, endpoint_id, status, event_type) WHERE pinned = 1;
          DROP INDEX logs_by_account;
          CREATE INDEX logs_by_account ON logs (account_id, seq, pinned);`,
  },
  {
    // Step 2 made this index cover the metrics' counting pass when every window read the logs.
    // Since step 8, windows of whole hours (24h, 7d, 30d) read log_hourly and logs_by_size; this
    // index serves what is left: the 1h window (minute buckets) and log_hourly's look-up of an
    // hour's newest log after a delete, each over the logs of an hour or so. Reading those rows
    // costs less than carrying endpoint, status and size in every entry: at 100,000 logs over 30
    // days (the seeded store), 86 -> 41-45 bytes a delivery, and the 1h stats 0.3-0.9 ms
    // either way; a window of 98,000 logs (a flood within the hour) 174-190 -> 191-207 ms.
    // Same name: log_hourly's triggers name it (INDEXED BY).
    number: 15,
    name: 'logs_by_received_at_narrow',
    sql: `DROP INDEX logs_by_received_at;
          CREATE INDEX logs_by_received_at ON logs (account_id, received_at);`,
  },
  {
    // A log's headers go to the blob files with its body, one spilled value, headers first
    // (server/storage/sqljs/stored-headers-sqljs.ts): the row keeps where (headers_at, a blob
    // location) and how long. Their JSON was 246 of a row's 553 bytes at 100,000 deliveries,
    // and sql.js holds the database in memory and each checkpoint copies it. Logs stored
    // before keep theirs in raw_headers. The blob file stays while the body's row refers to
    // it (log_bodies' location is in the same file: one value is never split across files).
    number: 16,
    name: 'logs_headers_spilled',
    sql: `ALTER TABLE logs ADD COLUMN headers_at INTEGER;
          ALTER TABLE logs ADD COLUMN headers_length INTEGER;`,
  },
  {
    // The search signatures go to the store's aux database (server/store/snapshot-file.ts), which
    // a checkpoint exports apart from the main one: its copies are then the size of the larger
    // database, not of both. At 100,000 deliveries the signatures are 376 of 1,074 bytes a
    // delivery, and a checkpoint's peak was 418 MB against a goal of 400 (issue 25).
    number: 17,
    name: 'log_search_aux',
    sql: SEARCH_INDEX_TO_AUX_SQL,
    temporary: SEARCH_INDEX_TEMPORARY,
  },
];

// log_hourly's trigger statements (the logs_hourly migration), for a row `r` (NEW or OLD). Function
// declarations, so the list above can call them.

/** Start of the UTC hour a millisecond time falls in (floored, also before 1970). */
function hourOf(t: string): string {
  return `(${t} - (${t} % 3600000 + 3600000) % 3600000)`;
}

/** The log adds to its (account, hour, endpoint) row, creating it. */
function countHourly(r: string): string {
  return `INSERT INTO log_hourly (account_id, hour, endpoint_id, n, success, failed, sum_size, last_received_at)
     VALUES (${r}.account_id, ${hourOf(`${r}.received_at`)}, ${r}.endpoint_id, 1, ${r}.status = 'success',
       ${r}.status = 'failed', ${r}.size, ${r}.received_at)
     ON CONFLICT DO UPDATE SET n = n + 1, success = success + excluded.success, failed = failed + excluded.failed,
       sum_size = sum_size + excluded.sum_size, last_received_at = MAX(last_received_at, excluded.last_received_at);`;
}

/**
 * The row goes with its last log; otherwise it is decremented, and when the removed log
 * was the hour's newest, the next newest is looked up (AFTER triggers: the log is gone).
 */
function uncountHourly(r: string): string {
  const hour = hourOf(`${r}.received_at`);
  const key = `account_id = ${r}.account_id AND hour = ${hour} AND endpoint_id = ${r}.endpoint_id`;
  return `DELETE FROM log_hourly WHERE ${key} AND n = 1;
     UPDATE log_hourly SET n = n - 1, success = success - (${r}.status = 'success'),
       failed = failed - (${r}.status = 'failed'), sum_size = sum_size - ${r}.size,
       last_received_at = CASE WHEN last_received_at > ${r}.received_at THEN last_received_at ELSE (
         SELECT received_at FROM logs INDEXED BY logs_by_received_at
         WHERE account_id = ${r}.account_id AND received_at >= ${hour} AND received_at < ${hour} + 3600000
           AND endpoint_id = ${r}.endpoint_id
         ORDER BY received_at DESC LIMIT 1) END
     WHERE ${key};`;
}
