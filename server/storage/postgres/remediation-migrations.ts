import type { PostgresMigration } from './migration-runner.ts';

/**
 * The remediation feature's tables in PostgreSQL (its sql.js ones are
 * server/remediation/remediation-migrations.ts). The analysis stays JSON in
 * `text`, as in sql.js: it is read only whole, with its log, never queried by its
 * parts, and `text` gives back exactly the JSON written (keys in order), where
 * `jsonb` would reorder keys and refuse a string holding U+0000.
 *
 * An analysis follows its log by a foreign key (ON DELETE CASCADE), where sql.js
 * has its analyses_follow_logs trigger.
 */
export const remediationMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'remediation_analyses',
    sql: `CREATE TABLE remediation_analyses (
            log_id text PRIMARY KEY,
            account_id text NOT NULL,
            endpoint_id text NOT NULL,
            analysis text NOT NULL,
            created_at bigint NOT NULL
          );
          CREATE INDEX remediation_by_endpoint ON remediation_analyses (account_id, endpoint_id);`,
  },
  {
    number: 2,
    name: 'analyses_follow_logs',
    sql: `ALTER TABLE remediation_analyses ADD CONSTRAINT analyses_follow_logs
            FOREIGN KEY (log_id) REFERENCES logs (id) ON DELETE CASCADE;`,
  },
];
