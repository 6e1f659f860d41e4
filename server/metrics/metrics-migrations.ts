import type { Migration } from '../store/store-types.ts';

/**
 * Deliveries refused without storing (an inactive endpoint) leave no log, so
 * metrics counts them itself, per account, endpoint and minute (the finest
 * bucket of any window). `last_at` keeps the exact time of the latest one.
 * Refusals that are also stored (reason payload_too_large) are counted here
 * too, for the refusals read (server/metrics/refusal-reasons.ts).
 */
export const metricsMigrations: Migration[] = [
  {
    number: 1,
    legacyVersion: 30,
    name: 'metrics_rejections',
    sql: `CREATE TABLE metrics_rejections (
            account_id TEXT NOT NULL,
            endpoint_id TEXT NOT NULL,
            minute INTEGER NOT NULL,
            count INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (account_id, endpoint_id, minute)
          );
          CREATE INDEX metrics_rejections_by_time ON metrics_rejections (account_id, minute);`,
  },
  {
    // Rejections by reason (an inactive endpoint, the rate limit); existing counts were all inactive endpoints.
    number: 2,
    legacyVersion: 33,
    name: 'metrics_rejection_reasons',
    sql: `CREATE TABLE metrics_rejections_v2 (
            account_id TEXT NOT NULL,
            endpoint_id TEXT NOT NULL,
            minute INTEGER NOT NULL,
            reason TEXT NOT NULL,
            count INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (account_id, endpoint_id, minute, reason)
          );
          INSERT INTO metrics_rejections_v2 (account_id, endpoint_id, minute, reason, count, last_at)
            SELECT account_id, endpoint_id, minute, 'endpoint_inactive', count, last_at FROM metrics_rejections;
          DROP TABLE metrics_rejections;
          ALTER TABLE metrics_rejections_v2 RENAME TO metrics_rejections;
          CREATE INDEX metrics_rejections_by_time ON metrics_rejections (account_id, minute);`,
  },
];
