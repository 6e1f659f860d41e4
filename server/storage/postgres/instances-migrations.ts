import type { PostgresMigration } from './migration-runner.ts';

/**
 * The engines on this database (instances-postgres.ts): a row per running
 * instance, its heartbeat renewed every few seconds, removed on a clean stop
 * and pruned by housekeeping once it has gone quiet. Epoch milliseconds are
 * `bigint` (read back as numbers, see postgres-database.ts).
 */
export const instancesMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'instances',
    sql: `CREATE TABLE instances (
            id text PRIMARY KEY,
            started_at bigint NOT NULL,
            heartbeat_at bigint NOT NULL
          );`,
  },
];
