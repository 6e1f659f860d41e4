import type { PostgresMigration } from './migration-runner.ts';

/**
 * Sign-in codes in PostgreSQL (the embedded backend keeps them in memory):
 * shared by every instance, so a link one issued signs in on any. Only the
 * SHA-256 of a code is kept. Epoch milliseconds are `bigint` (read back as
 * numbers, see postgres-database.ts). `account_name` is an account name, which
 * ACCOUNT_NAME_RE (server/auth/account-id.ts) limits to ASCII letters, digits
 * and `._@-`.
 */
export const signInCodesMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'sign_in_codes',
    sql: `CREATE TABLE sign_in_codes (
            code_hash text PRIMARY KEY,
            account_id text NOT NULL,
            account_name text NOT NULL,
            expires_at bigint NOT NULL
          );
          CREATE INDEX sign_in_codes_by_expiry ON sign_in_codes (expires_at);`,
  },
];
