import type { ForwardQueueRepository, QueuedForward } from '../../replay/forward-queue-repository.ts';
import { QUEUED_FORWARD_COLUMNS, queuedForwardFromRow, type QueuedForwardRow } from '../rows/queued-forward-row.ts';
import type { Sql } from './postgres-database.ts';

/** The forward queue and its lanes' leases in PostgreSQL (tables: replay-migrations.ts). */
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

  /**
   * One statement, so atomic: the insert takes a free lane; on a held one the
   * conflicting row is locked and updated only when it is the owner's own or
   * its lease ran out. Of two instances claiming at once the second waits for
   * the first's row and then sees its lease, so one is granted.
   */
  async claimLane(endpointId: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO forward_lanes (endpoint_id, owner, lease_until) VALUES ($1, $2, $3)
       ON CONFLICT (endpoint_id) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
       WHERE forward_lanes.owner = EXCLUDED.owner OR forward_lanes.lease_until < $4
       RETURNING owner`,
      [endpointId, owner, now + leaseMs, now],
    );
    return rows.length === 1;
  }

  async releaseLane(endpointId: string, owner: string): Promise<void> {
    await this.db.query('DELETE FROM forward_lanes WHERE endpoint_id = $1 AND owner = $2', [endpointId, owner]);
  }

  async unclaimedWithPending(now: number): Promise<string[]> {
    const rows = await this.db.query<{ endpoint_id: string }>(
      `SELECT DISTINCT q.endpoint_id FROM forward_queue q
       LEFT JOIN forward_lanes l ON l.endpoint_id = q.endpoint_id
       WHERE l.endpoint_id IS NULL OR l.lease_until < $1`,
      [now],
    );
    return rows.map((r) => r.endpoint_id);
  }
}
