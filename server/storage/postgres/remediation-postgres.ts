import type { RemediationRepository, StoredAnalysis } from '../../remediation/remediation-repository.ts';
import type { Sql } from './postgres-database.ts';

/** Analyses in PostgreSQL (tables: remediation-migrations.ts). */
export class PostgresRemediationRepository implements RemediationRepository {
  constructor(private readonly db: Sql) {}

  async find(accountId: string, logId: string): Promise<StoredAnalysis | undefined> {
    const [row] = await this.db.query<{ analysis: string }>(
      'SELECT analysis FROM remediation_analyses WHERE account_id = $1 AND log_id = $2',
      [accountId, logId],
    );
    // Written by save from a StoredAnalysis (remediation-migrations.ts says why it is text).
    return row ? (JSON.parse(row.analysis) as StoredAnalysis) : undefined;
  }

  async save(accountId: string, endpointId: string, analysis: StoredAnalysis, createdAt: number): Promise<void> {
    // Nothing when the log is gone (deleted while the analysis was made), where the foreign key would
    // fail the insert; FOR KEY SHARE holds the log until the statement ends, so no delete slips in between.
    await this.db.query(
      `INSERT INTO remediation_analyses (log_id, account_id, endpoint_id, analysis, created_at)
       SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM logs WHERE id = $1 FOR KEY SHARE)
       ON CONFLICT (log_id) DO UPDATE SET analysis = excluded.analysis, created_at = excluded.created_at`,
      [analysis.logId, accountId, endpointId, JSON.stringify(analysis), createdAt],
    );
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.db.query('DELETE FROM remediation_analyses WHERE account_id = $1 AND endpoint_id = $2', [
      accountId,
      endpointId,
    ]);
  }
}
