import type { QueuedForward } from '../../replay/forward-queue-repository.ts';

/** A queued forward as a table row, the same on both backends. */
export interface QueuedForwardRow {
  seq: number;
  account_id: string;
  endpoint_id: string;
  log_id: string;
  enqueued_at: number;
  attempts: number;
}

/** The columns queuedForwardFromRow reads. */
export const QUEUED_FORWARD_COLUMNS = 'seq, account_id, endpoint_id, log_id, enqueued_at, attempts';

export const queuedForwardFromRow = (row: QueuedForwardRow): QueuedForward => ({
  seq: row.seq,
  accountId: row.account_id,
  endpointId: row.endpoint_id,
  logId: row.log_id,
  enqueuedAt: row.enqueued_at,
  attempts: row.attempts,
});
