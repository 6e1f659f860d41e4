import type { PostgresMigration } from './migration-runner.ts';

/**
 * The replay feature's tables in PostgreSQL (its sql.js ones are
 * server/replay/replay-migrations.ts). Types chosen for PostgreSQL rather than
 * copied from SQLite:
 * - `seq` is the insertion order: history breaks ties of `created_at` by it,
 *   eviction too, and the forward queue is first in, first out by it.
 * - Epoch milliseconds and sizes are `bigint` (read back as numbers, see
 *   postgres-database.ts), `response_truncated` is `boolean`, bodies are `bytea`.
 * - `target_url`, `method` and `error_message` hold their string as JSON text
 *   (a JSON string literal): they can come from outside (an error quotes a
 *   sender's path or what a target said) and may hold U+0000, which `text`
 *   refuses and a JSON escape never holds raw. Nothing queries them by their
 *   parts. The headers are JSON text for the same reason, as in sql.js.
 * - Attempts and queued forwards follow their log (`log_id REFERENCES logs (id)
 *   ON DELETE CASCADE`, the counterpart of sql.js's replays_follow_logs trigger),
 *   and an edited request follows its attempt; the `log_id` indexes serve those
 *   cascades.
 */
export const replayMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'replays',
    sql: `CREATE TABLE replays (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id text NOT NULL UNIQUE,
            account_id text NOT NULL,
            log_id text NOT NULL REFERENCES logs (id) ON DELETE CASCADE,
            endpoint_id text NOT NULL,
            target_url text NOT NULL,
            method text NOT NULL,
            status integer,
            response_time bigint NOT NULL,
            error_code text,
            error_message text,
            replay_trigger text NOT NULL,
            created_at bigint NOT NULL,
            request_headers text NOT NULL,
            response_headers text NOT NULL,
            response_truncated boolean NOT NULL,
            response_body bytea NOT NULL
          );
          CREATE INDEX replays_by_log ON replays (log_id, created_at, seq);
          CREATE INDEX replays_by_account_time ON replays (account_id, created_at, seq);
          CREATE INDEX replays_by_endpoint ON replays (endpoint_id, replay_trigger, created_at);
          CREATE TABLE replay_requests (
            replay_id text PRIMARY KEY REFERENCES replays (id) ON DELETE CASCADE,
            body bytea,
            body_size bigint
          );`,
  },
  {
    number: 2,
    name: 'forward_queue',
    sql: `CREATE TABLE forward_queue (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            account_id text NOT NULL,
            endpoint_id text NOT NULL,
            log_id text NOT NULL REFERENCES logs (id) ON DELETE CASCADE,
            enqueued_at bigint NOT NULL,
            attempts integer NOT NULL DEFAULT 0
          );
          CREATE INDEX forward_queue_by_endpoint ON forward_queue (endpoint_id, seq);
          CREATE INDEX forward_queue_by_log ON forward_queue (log_id);`,
  },
  {
    // Who works each endpoint's queue while several instances share the database
    // (forward-queue-postgres.ts). No foreign key: a lane is released when its
    // queue is empty, and a deleted endpoint's queue empties on its turn.
    number: 3,
    name: 'forward_lanes',
    sql: `CREATE TABLE forward_lanes (
            endpoint_id text PRIMARY KEY,
            owner text NOT NULL,
            lease_until bigint NOT NULL
          );`,
  },
];
