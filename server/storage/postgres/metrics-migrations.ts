import type { PostgresMigration } from './migration-runner.ts';

/**
 * The metrics feature's tables in PostgreSQL (its sql.js ones are
 * server/metrics/metrics-migrations.ts): refusals counted per account,
 * endpoint, minute and reason. `minute` and `last_at` are epoch milliseconds as
 * `bigint` (read back as numbers, see postgres-database.ts); `count` is `bigint`
 * too, so a flood never overflows it. `reason` is one of REFUSAL_REASONS and
 * `endpoint_id` an existing endpoint's id: no text from outside reaches this
 * table. The primary key is what countRejections upserts on.
 */
export const metricsMigrations: PostgresMigration[] = [
  {
    number: 1,
    name: 'metrics_rejections',
    sql: `CREATE TABLE metrics_rejections (
            account_id text NOT NULL,
            endpoint_id text NOT NULL,
            minute bigint NOT NULL,
            reason text NOT NULL,
            count bigint NOT NULL,
            last_at bigint NOT NULL,
            PRIMARY KEY (account_id, endpoint_id, minute, reason)
          );
          CREATE INDEX metrics_rejections_by_time ON metrics_rejections (account_id, minute);`,
  },
];
