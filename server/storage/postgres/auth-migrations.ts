import type { PostgresMigration } from './migration-runner.ts';

/**
 * What authentication keeps in PostgreSQL: the key that signs API tokens (in
 * the embedded store's place it is the data directory's `signing-key` file).
 * One row, so every instance on the database signs and checks with the same key:
 * a token minted by one is accepted by all.
 */
export const authMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'signing_key',
    sql: `CREATE TABLE signing_key (
            id smallint PRIMARY KEY CHECK (id = 1),
            key bytea NOT NULL,
            created_at bigint NOT NULL
          );`,
  },
];
