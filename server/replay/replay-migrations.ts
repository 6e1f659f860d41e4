import type { Migration } from '../store/store-types.ts';

/**
 * Replay history (manual replays and forwards alike) and the forward queue.
 * The response body is the last column of `replays` so history lists, which
 * never select it, do not touch its overflow pages.
 */
export const replayMigrations: Migration[] = [
  {
    number: 1,
    legacyVersion: 10,
    name: 'replays',
    sql: `CREATE TABLE replays (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            account_id TEXT NOT NULL,
            log_id TEXT NOT NULL,
            endpoint_id TEXT NOT NULL,
            target_url TEXT NOT NULL,
            method TEXT NOT NULL,
            status INTEGER,
            response_time INTEGER NOT NULL,
            error_code TEXT,
            error_message TEXT,
            replay_trigger TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            request_headers TEXT NOT NULL,
            response_headers TEXT NOT NULL,
            response_truncated INTEGER NOT NULL,
            response_body BLOB NOT NULL
          );
          CREATE INDEX replays_by_log ON replays (account_id, log_id, created_at);
          CREATE INDEX replays_by_account_time ON replays (account_id, created_at);
          CREATE INDEX replays_by_endpoint ON replays (endpoint_id, replay_trigger, created_at);`,
  },
  {
    number: 2,
    legacyVersion: 11,
    name: 'forward_queue',
    sql: `CREATE TABLE forward_queue (
            seq INTEGER PRIMARY KEY,
            account_id TEXT NOT NULL,
            endpoint_id TEXT NOT NULL,
            log_id TEXT NOT NULL,
            enqueued_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX forward_queue_by_endpoint ON forward_queue (endpoint_id, seq);`,
  },
  {
    // Replay history and queued forwards live no longer than their log: retention evicts
    // logs inside the logs feature's own record, and these triggers (on replay's own tables)
    // remove the rest in that same write, like ON DELETE CASCADE declared by the child.
    number: 3,
    legacyVersion: 12,
    name: 'replays_follow_logs',
    sql: `CREATE TRIGGER replays_follow_logs AFTER DELETE ON logs BEGIN
            DELETE FROM replays WHERE account_id = OLD.account_id AND log_id = OLD.id;
            DELETE FROM forward_queue WHERE endpoint_id = OLD.endpoint_id AND log_id = OLD.id;
          END;`,
  },
  {
    // What an edited replay sent (the user changed its method, headers or body), one row per
    // edited attempt: its presence marks the attempt edited, and `body` holds the bytes sent
    // when they differ from the log's (NULL: the log's own bytes), at most their first 64 KiB
    // (`body_size` is the whole size), like a stored response. Apart from `replays` so
    // history lists, which read the mark, never walk a response body's overflow pages; kept
    // in the database (not the blob files) so secure_delete erases it with its attempt, which
    // it follows wherever that goes (eviction, its log, its endpoint).
    number: 4,
    name: 'replay_requests',
    sql: `CREATE TABLE replay_requests (
            replay_id TEXT PRIMARY KEY,
            body BLOB,
            body_size INTEGER
          );
          CREATE TRIGGER replay_requests_follow_replays AFTER DELETE ON replays BEGIN
            DELETE FROM replay_requests WHERE replay_id = OLD.id;
          END;`,
  },
];
