import type { Migration } from '../store/store-types.ts';

/** One stored analysis per log (refresh replaces it); endpoint_id lets an endpoint's deletion remove its analyses. */
export const remediationMigrations: Migration[] = [
  {
    number: 1,
    legacyVersion: 40,
    name: 'remediation_analyses',
    sql: `CREATE TABLE remediation_analyses (
            log_id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            endpoint_id TEXT NOT NULL,
            analysis TEXT NOT NULL,
            created_at INTEGER NOT NULL
          );
          CREATE INDEX remediation_by_endpoint ON remediation_analyses (account_id, endpoint_id);`,
  },
  {
    // An analysis lives no longer than its log (see replays_follow_logs for why a trigger).
    number: 2,
    legacyVersion: 41,
    name: 'analyses_follow_logs',
    sql: `CREATE TRIGGER analyses_follow_logs AFTER DELETE ON logs BEGIN
            DELETE FROM remediation_analyses WHERE log_id = OLD.id AND account_id = OLD.account_id;
          END;`,
  },
];
