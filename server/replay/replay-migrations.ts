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
];
