import { SIGNATURE_COLUMNS } from '../../logs/search-index.ts';
import type { PostgresMigration } from './migration-runner.ts';

/**
 * The logs feature's tables in PostgreSQL (its sql.js ones are
 * server/logs/logs-migrations.ts). Types chosen for PostgreSQL:
 * - `seq` orders logs as in sql.js (newest first in lists, oldest first for
 *   eviction); `id` is what every other table names a log by, and what their
 *   foreign keys reference (ON DELETE CASCADE, declared in their own migrations:
 *   what follows a log goes with it in the same transaction).
 * - Epoch milliseconds and sizes are `bigint` (read back as numbers, see
 *   postgres-database.ts), flags `boolean`.
 * - Text that comes from outside and is stored as it is (path, content type, source
 *   address, event type, a refusal's sentence) is `bytea` holding its UTF-8:
 *   PostgreSQL's `text` refuses U+0000, which sql.js keeps. Query, headers and
 *   verification stay JSON in `text`, as in sql.js: JSON escapes U+0000, and `text`
 *   gives back exactly the JSON written (`jsonb` would refuse `\u0000` and reorder keys).
 * - `verification_reason` is the verification's reason, taken out at insert for the
 *   failure counts: reading it from the JSON (`::json ->> 'reason'`) fails on any
 *   `\u0000` in the document, which a detail may hold.
 * - Bodies are `bytea` in their own table, so lists never read them, written in the
 *   same transaction as the log row.
 */
export const logsMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'logs',
    sql: `CREATE TABLE logs (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text NOT NULL UNIQUE,
            account_id text NOT NULL,
            endpoint_id text NOT NULL,
            method text NOT NULL,
            path bytea NOT NULL,
            query text NOT NULL,
            raw_headers text NOT NULL,
            content_type bytea,
            size bigint NOT NULL,
            declared_size bigint,
            stored_size bigint NOT NULL,
            truncated boolean NOT NULL,
            source_ip bytea,
            received_at bigint NOT NULL,
            duration_ms bigint NOT NULL,
            status text NOT NULL,
            verification text NOT NULL,
            verification_reason text,
            pinned boolean NOT NULL DEFAULT false,
            event_type bytea,
            answer_status integer,
            answer_message bytea,
            answer_custom text
          );
          -- Lists and their counts (newest first), an endpoint's logs, the pinned filter and eviction
          -- (the oldest unpinned first), the metrics' windows (the INCLUDE columns spare the table), and the
          -- release of a custom answer with the last log naming it.
          CREATE INDEX logs_by_account ON logs (account_id, seq);
          CREATE INDEX logs_by_endpoint ON logs (account_id, endpoint_id, seq);
          CREATE INDEX logs_by_pinned ON logs (account_id, pinned, seq);
          CREATE INDEX logs_by_received_at ON logs (account_id, received_at)
            INCLUDE (endpoint_id, status, size, verification_reason);
          CREATE INDEX logs_by_custom_answer ON logs (account_id, answer_custom) WHERE answer_custom IS NOT NULL;

          CREATE TABLE log_bodies (
            log_seq bigint PRIMARY KEY REFERENCES logs (seq) ON DELETE CASCADE,
            body bytea NOT NULL
          );

          -- A custom response the receiver answered with, once per account and content (JSON text), named by
          -- logs.answer_custom; it goes with the last log of the account naming it (logs_released below).
          CREATE TABLE log_custom_answers (
            account_id text NOT NULL,
            key text NOT NULL,
            answer text NOT NULL,
            PRIMARY KEY (account_id, key)
          );

          -- The search index (server/logs/search-index.ts): each log's trigram signature rows, n = 0, 1, ...
          CREATE TABLE log_search (
            log_seq bigint NOT NULL REFERENCES logs (seq) ON DELETE CASCADE,
            n integer NOT NULL,
            ${SIGNATURE_COLUMNS.map((c) => `${c} bigint NOT NULL`).join(', ')},
            PRIMARY KEY (log_seq, n)
          );

          -- Each account's unpinned logs and their stored bytes, so retention never counts the account.
          -- Kept by the statement triggers below whoever writes logs; a write to an account's logs takes
          -- this row's lock first (logs-postgres.ts), so concurrent writers queue on it.
          CREATE TABLE log_account_stats (
            account_id text PRIMARY KEY,
            logs bigint NOT NULL DEFAULT 0,
            bytes bigint NOT NULL DEFAULT 0
          );
          CREATE FUNCTION logs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            INSERT INTO log_account_stats AS s (account_id, logs, bytes)
              SELECT account_id, count(*), sum(stored_size) FROM new_rows WHERE NOT pinned GROUP BY account_id
              ON CONFLICT (account_id) DO UPDATE SET logs = s.logs + excluded.logs, bytes = s.bytes + excluded.bytes;
            RETURN NULL;
          END $$;
          CREATE TRIGGER logs_counted AFTER INSERT ON logs REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION logs_counted();
          CREATE FUNCTION logs_released() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            UPDATE log_account_stats s SET logs = s.logs - g.logs, bytes = s.bytes - g.bytes
              FROM (SELECT account_id, count(*) AS logs, sum(stored_size) AS bytes FROM old_rows WHERE NOT pinned
                    GROUP BY account_id) g
              WHERE s.account_id = g.account_id;
            DELETE FROM log_custom_answers c
              USING (SELECT DISTINCT account_id, answer_custom FROM old_rows WHERE answer_custom IS NOT NULL) g
              WHERE c.account_id = g.account_id AND c.key = g.answer_custom
                AND NOT EXISTS (SELECT 1 FROM logs l WHERE l.account_id = g.account_id AND l.answer_custom = g.answer_custom);
            RETURN NULL;
          END $$;
          CREATE TRIGGER logs_released AFTER DELETE ON logs REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION logs_released();
          -- A pin (or any change of account, size or pin) moves the log in or out of the counts.
          CREATE FUNCTION logs_recounted() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            UPDATE log_account_stats s SET logs = s.logs + g.logs, bytes = s.bytes + g.bytes
              FROM (SELECT account_id, sum(n) AS logs, sum(b) AS bytes
                    FROM (SELECT account_id, -1 AS n, -stored_size AS b FROM old_rows WHERE NOT pinned
                          UNION ALL SELECT account_id, 1, stored_size FROM new_rows WHERE NOT pinned) d
                    GROUP BY account_id) g
              WHERE s.account_id = g.account_id AND (g.logs <> 0 OR g.bytes <> 0);
            RETURN NULL;
          END $$;
          CREATE TRIGGER logs_recounted AFTER UPDATE ON logs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION logs_recounted();`,
  },
  {
    // The list filters the other indexes left to row-by-row checks, as sql.js's logs migration
    // 11 (issue 25; measured at 100,000 deliveries through the receiver: an event type 46-89 ms
    // p95, 89 when none matched; a status on an endpoint with none 40 ms). Each starts with the
    // filters' equalities and then seq, so a page is read in order and stops at its limit. A
    // plain CREATE INDEX: it holds back inserts while it builds (about a second at 100,000 logs).
    number: 2,
    name: 'logs_filter_indexes',
    sql: `CREATE INDEX logs_by_event_type ON logs (account_id, event_type, seq);
          CREATE INDEX logs_by_endpoint_status ON logs (account_id, endpoint_id, status, seq);`,
  },
];
