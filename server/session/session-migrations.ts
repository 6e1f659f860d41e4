import type { Migration } from '../store/store-types.ts';

/**
 * UI sessions (the `hookscope_session` cookie). Only the SHA-256 of a session id
 * is kept: the database and journal never hold a working cookie. The account's
 * name is copied in, since no feature reads another's tables. A row lives until
 * its session is signed out, replaced by a switch of account, or expired and pruned.
 */
export const sessionMigrations: Migration[] = [
  {
    number: 1,
    name: 'sessions',
    sql: `CREATE TABLE sessions (
            id_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            account_name TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL
          );
          CREATE INDEX sessions_by_expiry ON sessions (expires_at);`,
  },
];
