import type { Store } from '../store/store-types.ts';

export interface QueuedForward {
  seq: number;
  accountId: string;
  endpointId: string;
  logId: string;
  enqueuedAt: number;
  attempts: number;
}

interface QueueRow {
  seq: number;
  account_id: string;
  endpoint_id: string;
  log_id: string;
  enqueued_at: number;
  attempts: number;
}

/** The durable forward queue: one row per accepted delivery waiting for its endpoint's forwardUrl. */
export class ForwardQueueRepository {
  constructor(private readonly store: Store) {}

  /** `durable`: the receiver's answer to the sender waits for the journal, not for the worker. */
  async enqueue(item: Omit<QueuedForward, 'seq' | 'attempts'>): Promise<void> {
    await this.store.write(
      [
        {
          sql: 'INSERT INTO forward_queue (account_id, endpoint_id, log_id, enqueued_at, attempts) VALUES (?, ?, ?, ?, 0)',
          params: [item.accountId, item.endpointId, item.logId, item.enqueuedAt],
        },
      ],
      'durable',
    );
  }

  async head(endpointId: string): Promise<QueuedForward | undefined> {
    const row = await this.store.get<QueueRow>(
      'SELECT seq, account_id, endpoint_id, log_id, enqueued_at, attempts FROM forward_queue WHERE endpoint_id = ? ORDER BY seq LIMIT 1',
      [endpointId],
    );
    return row
      ? {
          seq: row.seq,
          accountId: row.account_id,
          endpointId: row.endpoint_id,
          logId: row.log_id,
          enqueuedAt: row.enqueued_at,
          attempts: row.attempts,
        }
      : undefined;
  }

  async pending(endpointId: string): Promise<number> {
    const row = await this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM forward_queue WHERE endpoint_id = ?', [
      endpointId,
    ]);
    return row?.n ?? 0;
  }

  /** Endpoints with something queued (to resume after a restart). */
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

  async removeLogs(accountId: string, logIds: readonly string[]): Promise<void> {
    if (logIds.length === 0) return;
    await this.store.write([
      {
        sql: `DELETE FROM forward_queue WHERE account_id = ? AND log_id IN (${logIds.map(() => '?').join(', ')})`,
        params: [accountId, ...logIds],
      },
    ]);
  }
}
