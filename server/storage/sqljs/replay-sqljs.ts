import type { ReplayOutcome, ReplayRepository } from '../../replay/replay-repository.ts';
import type { StoredReplay } from '../../replay/replay-types.ts';
import type { Store, WriteOp } from '../../store/store-types.ts';
import {
  outcomeFromRow,
  REPLAY_COLUMNS,
  replayFromRow,
  replayValues,
  type OutcomeRow,
  type ReplayColumnCodec,
  type ReplayRow,
} from '../rows/replay-row.ts';

/** SQLite has no boolean (a flag is 0 or 1) and its TEXT keeps U+0000: free text is stored as it is. */
const CODEC: ReplayColumnCodec<number> = {
  flag: (on) => (on ? 1 : 0),
  text: (value) => value,
  fromText: (stored) => stored,
};

// An index lookup in replay_requests: the mark, never a body.
const SELECTED = `${REPLAY_COLUMNS}, EXISTS (SELECT 1 FROM replay_requests q WHERE q.replay_id = replays.id) AS edited`;

// Only while its log exists: an attempt that ends after its log was deleted is not kept (the
// replays_follow_logs trigger, which removes a log's attempts, has already run). Its log id is ?3.
const INSERT = `INSERT INTO replays (${REPLAY_COLUMNS}, response_body)
  SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16
  WHERE EXISTS (SELECT 1 FROM logs WHERE id = ?3)`;

// Only with its attempt (above): an edited body never outlives the delivery the user deleted.
const INSERT_REQUEST = `INSERT INTO replay_requests (replay_id, body, body_size)
  SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM replays WHERE id = ?1)`;

// Keeps the newest `limit` attempts of an account; run now and then, not on every insert.
const EVICT = `DELETE FROM replays WHERE seq IN (
  SELECT seq FROM replays WHERE account_id = ? ORDER BY created_at DESC, seq DESC LIMIT -1 OFFSET ?)`;

/**
 * Replay history in the embedded sql.js store (the replay feature's sql.js
 * migrations create the tables; their triggers remove attempts with their log
 * and edited requests with their attempt).
 */
export class SqljsReplayRepository implements ReplayRepository {
  constructor(private readonly store: Store) {}

  async insert(r: StoredReplay, evictBeyond: number | null): Promise<void> {
    const ops: WriteOp[] = [{ sql: INSERT, params: [...replayValues(r, CODEC)] }];
    if (r.edited) ops.push({ sql: INSERT_REQUEST, params: [r.id, r.requestBody, r.requestBodySize] });
    if (evictBeyond !== null) ops.push({ sql: EVICT, params: [r.accountId, evictBeyond] });
    await this.store.write(ops);
  }

  async forLog(
    accountId: string,
    logId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: StoredReplay[]; total: number }> {
    const rows = await this.store.all<ReplayRow>(
      `SELECT ${SELECTED} FROM replays WHERE account_id = ? AND log_id = ?
       ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
      [accountId, logId, limit, offset],
    );
    const count = await this.store.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM replays WHERE account_id = ? AND log_id = ?',
      [accountId, logId],
    );
    return { rows: rows.map((row) => replayFromRow(row, CODEC)), total: count?.n ?? 0 };
  }

  async find(accountId: string, id: string): Promise<StoredReplay | undefined> {
    const row = await this.store.get<ReplayRow>(
      `SELECT ${SELECTED}, response_body,
         (SELECT body FROM replay_requests q WHERE q.replay_id = replays.id) AS request_body,
         (SELECT body_size FROM replay_requests q WHERE q.replay_id = replays.id) AS request_body_size
       FROM replays WHERE account_id = ? AND id = ?`,
      [accountId, id],
    );
    return row ? replayFromRow(row, CODEC) : undefined;
  }

  async since(accountId: string, sinceMs: number): Promise<ReplayOutcome[]> {
    const rows = await this.store.all<OutcomeRow>(
      `SELECT status, error_code, error_message, response_time, replay_trigger FROM replays
       WHERE account_id = ? AND created_at >= ?`,
      [accountId, sinceMs],
    );
    return rows.map((row) => outcomeFromRow(row, CODEC));
  }

  async lastForwardDelivered(accountId: string, endpointId: string): Promise<number | null> {
    const row = await this.store.get<{ at: number | null }>(
      `SELECT MAX(created_at + response_time) AS at FROM replays
       WHERE endpoint_id = ? AND replay_trigger = 'forward' AND account_id = ? AND error_code IS NULL AND status < 400`,
      [endpointId, accountId],
    );
    return row?.at ?? null;
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.store.write([
      { sql: 'DELETE FROM replays WHERE account_id = ? AND endpoint_id = ?', params: [accountId, endpointId] },
    ]);
  }
}
