import type { RemediationRepository, StoredAnalysis } from '../../remediation/remediation-repository.ts';
import type { Store } from '../../store/store-types.ts';

/** Analyses in the embedded sql.js store (the remediation feature's sql.js migrations create the table). */
export class SqljsRemediationRepository implements RemediationRepository {
  constructor(private readonly store: Store) {}

  async find(accountId: string, logId: string): Promise<StoredAnalysis | undefined> {
    const row = await this.store.get<{ analysis: string }>(
      'SELECT analysis FROM remediation_analyses WHERE account_id = ? AND log_id = ?',
      [accountId, logId],
    );
    return row ? (JSON.parse(row.analysis) as StoredAnalysis) : undefined;
  }

  async save(accountId: string, endpointId: string, analysis: StoredAnalysis, createdAt: number): Promise<void> {
    await this.store.write(
      [
        {
          // Only while its log exists: one deleted while the analysis was made keeps none (the
          // analyses_follow_logs trigger has already run for it).
          sql: `INSERT INTO remediation_analyses (log_id, account_id, endpoint_id, analysis, created_at)
                SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM logs WHERE id = ?1)
                ON CONFLICT (log_id) DO UPDATE SET analysis = excluded.analysis, created_at = excluded.created_at`,
          params: [analysis.logId, accountId, endpointId, JSON.stringify(analysis), createdAt],
        },
      ],
      'applied',
    );
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.store.write(
      [
        {
          sql: 'DELETE FROM remediation_analyses WHERE account_id = ? AND endpoint_id = ?',
          params: [accountId, endpointId],
        },
      ],
      'applied',
    );
  }
}
