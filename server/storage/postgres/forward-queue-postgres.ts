import type { ForwardQueueRepository, QueuedForward } from '../../replay/forward-queue-repository.ts';
import { QUEUED_FORWARD_COLUMNS, queuedForwardFromRow, type QueuedForwardRow } from '../rows/queued-forward-row.ts';
import type { Sql } from './postgres-database.ts';

/** The forward queue in PostgreSQL (tables: replay-migrations.ts). */
export class PostgresForwardQueueRepository implements ForwardQueueRepository {
  constructor(private readonly db: Sql) {}

  /**
   * Committed when it resolves, so durable. Stores nothing when the log is gone,
   * where the foreign key would fail the insert (FOR KEY SHARE: see
   * PostgresReplayRepository's insert).
   */
  async enqueue(item: Omit<QueuedForward, 'seq' | 'attempts'>): Promise<void> {
    await this.db.query(
      `INSERT INTO forward_queue (account_id, endpoint_id, log_id, enqueued_at, attempts)
       SELECT $1, $2, $3, $4, 0 WHERE EXISTS (SELECT 1 FROM logs WHERE id = $3 FOR KEY SHARE)`,
      [item.accountId, item.endpointId, item.logId, item.enqueuedAt],
    );
  }

  async head(endpointId: string): Promise<QueuedForward | undefined> {
    const [row] = await this.db.query<QueuedForwardRow>(
      `SELECT ${QUEUED_FORWARD_COLUMNS} FROM forward_queue WHERE endpoint_id = $1 ORDER BY seq LIMIT 1`,
      [endpointId],
    );
    return row ? queuedForwardFromRow(row) : undefined;
  }

  async pending(endpointId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM forward_queue WHERE endpoint_id = $1', [
      endpointId,
    ]);
    return row?.n ?? 0;
  }

  async endpointsWithPending(): Promise<string[]> {
    const rows = await this.db.query<{ endpoint_id: string }>('SELECT DISTINCT endpoint_id FROM forward_queue');
    return rows.map((r) => r.endpoint_id);
  }

  async recordAttempt(seq: number, attempts: number): Promise<void> {
    await this.db.query('UPDATE forward_queue SET attempts = $1 WHERE seq = $2', [attempts, seq]);
  }

  async remove(seq: number): Promise<void> {
    await this.db.query('DELETE FROM forward_queue WHERE seq = $1', [seq]);
  }

  async clearEndpoint(endpointId: string): Promise<void> {
    await this.db.query('DELETE FROM forward_queue WHERE endpoint_id = $1', [endpointId]);
  }
}
