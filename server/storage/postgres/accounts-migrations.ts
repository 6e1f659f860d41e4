import type { PostgresMigration } from './migration-runner.ts';

/**
 * The accounts feature's tables in PostgreSQL (its sql.js ones are
 * server/accounts/accounts-migrations.ts); created_at is epoch milliseconds as
 * `bigint` (read back as numbers, see postgres-database.ts).
 */
export const accountsMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'accounts',
    sql: `CREATE TABLE accounts (
            id text PRIMARY KEY,
            name text NOT NULL,
            created_at bigint NOT NULL
          );`,
  },
];
