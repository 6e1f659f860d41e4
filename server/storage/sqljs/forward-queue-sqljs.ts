import type { ForwardQueueRepository, QueuedForward } from '../../replay/forward-queue-repository.ts';
import type { Store } from '../../store/store-types.ts';
import { QUEUED_FORWARD_COLUMNS, queuedForwardFromRow, type QueuedForwardRow } from '../rows/queued-forward-row.ts';

/** The forward queue in the embedded sql.js store (the replay feature's sql.js migrations create the table). */
export class SqljsForwardQueueRepository implements ForwardQueueRepository {
  constructor(private readonly store: Store) {}

  /** `durable`: the receiver's answer to the sender waits for the journal, not for the worker. */
  async enqueue(item: Omit<QueuedForward, 'seq' | 'attempts'>): Promise<void> {
    await this.store.write(
      [
        {
          // Only while its log exists (applied after the log's own insert, in journal order): a
          // forward queued after its log was deleted would never be removed by replays_follow_logs.
          sql: `INSERT INTO forward_queue (account_id, endpoint_id, log_id, enqueued_at, attempts)
                SELECT ?1, ?2, ?3, ?4, 0 WHERE EXISTS (SELECT 1 FROM logs WHERE id = ?3)`,
          params: [item.accountId, item.endpointId, item.logId, item.enqueuedAt],
        },
      ],
      'durable',
    );
  }

  async head(endpointId: string): Promise<QueuedForward | undefined> {
    const row = await this.store.get<QueuedForwardRow>(
      `SELECT ${QUEUED_FORWARD_COLUMNS} FROM forward_queue WHERE endpoint_id = ? ORDER BY seq LIMIT 1`,
      [endpointId],
    );
    return row ? queuedForwardFromRow(row) : undefined;
  }

  async pending(endpointId: string): Promise<number> {
    const row = await this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM forward_queue WHERE endpoint_id = ?', [
      endpointId,
    ]);
    return row?.n ?? 0;
  }

  async endpointsWithPending(): Promise<string[]> {
    const rows = await this.store.all<{ endpoint_id: string }>('SELECT DISTINCT endpoint_id FROM forward_queue');
    return rows.map((r) => r.endpoint_id);
  }

  async recordAttempt(seq: number, attempts: number): Promise<void> {
    await this.store.write([{ sql: 'UPDATE forward_queue SET attempts = ? WHERE seq = ?', params: [attempts, seq] }]);
  }

  async remove(seq: number): Promise<void> {
    await this.store.write([{ sql: 'DELETE FROM forward_queue WHERE seq = ?', params: [seq] }]);
  }

  async clearEndpoint(endpointId: string): Promise<void> {
    await this.store.write([{ sql: 'DELETE FROM forward_queue WHERE endpoint_id = ?', params: [endpointId] }]);
  }

  /** One engine owns an embedded store (the data directory's lock): its lanes are always its own. */
  claimLane(): Promise<boolean> {
    return Promise.resolve(true);
  }

  releaseLane(): Promise<void> {
    return Promise.resolve();
  }

  unclaimedWithPending(): Promise<string[]> {
    return Promise.resolve([]);
  }
}
