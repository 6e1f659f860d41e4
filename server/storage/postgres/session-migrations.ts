import type { PostgresMigration } from './migration-runner.ts';

/**
 * The session feature's tables in PostgreSQL (its sql.js ones are
 * server/session/session-migrations.ts): UI sessions, shared by every instance so
 * a cookie one issued is accepted by all. Only the SHA-256 of a session id is
 * kept. Epoch milliseconds are `bigint` (read back as numbers, see
 * postgres-database.ts). `account_name` is an account name, which
 * ACCOUNT_NAME_RE (server/auth/account-id.ts) limits to ASCII letters, digits
 * and `._@-`: no text from outside reaches this table.
 */
export const sessionMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'sessions',
    sql: `CREATE TABLE sessions (
            id_hash text PRIMARY KEY,
            account_id text NOT NULL,
            account_name text NOT NULL,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL
          );
          CREATE INDEX sessions_by_expiry ON sessions (expires_at);`,
  },
];
