import type { Migration } from '../store/store-types.ts';

/**
 * Share links. Only the SHA-256 of a token is kept (token_hash): the database
 * and journal never hold a working link. One live link per log (the unique
 * index); a new one replaces the row.
 */
export const shareMigrations: Migration[] = [
  {
    number: 1,
    legacyVersion: 20,
    name: 'shares',
    sql: `CREATE TABLE shares (
            token_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            log_id TEXT NOT NULL,
            endpoint_id TEXT NOT NULL,
            redact INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
          );
          CREATE UNIQUE INDEX shares_by_log ON shares (account_id, log_id);
          CREATE INDEX shares_by_endpoint ON shares (account_id, endpoint_id);`,
  },
  {
    // A share link lives no longer than its log. Retention evicts logs inside the logs
    // feature's own record; this trigger (the share feature's, on its own table) removes
    // the link in that same write, like a foreign key's ON DELETE CASCADE declared by the child.
    number: 2,
    legacyVersion: 21,
    name: 'shares_follow_logs',
    sql: `CREATE TRIGGER shares_follow_logs AFTER DELETE ON logs BEGIN
            DELETE FROM shares WHERE account_id = OLD.account_id AND log_id = OLD.id;
          END;`,
  },
  {
    // Links made before path redaction existed show the path, as they did.
    number: 3,
    name: 'shares_redact_path',
    sql: 'ALTER TABLE shares ADD COLUMN redact_path INTEGER NOT NULL DEFAULT 0;',
  },
];
