import type { Store, WriteOp } from '../store/store-types.ts';
import type { HeaderPairs, ReplayFailure, ReplayTrigger, StoredReplay } from './replay-types.ts';

interface ReplayRow {
  id: string;
  account_id: string;
  log_id: string;
  endpoint_id: string;
  target_url: string;
  method: string;
  status: number | null;
  response_time: number;
  error_code: string | null;
  error_message: string | null;
  replay_trigger: string;
  created_at: number;
  request_headers: string;
  response_headers: string;
  response_truncated: number;
  edited: number;
  response_body?: Uint8Array;
  request_body?: Uint8Array | null;
  request_body_size?: number | null;
}

const COLUMNS = `id, account_id, log_id, endpoint_id, target_url, method, status, response_time, error_code,
  error_message, replay_trigger, created_at, request_headers, response_headers, response_truncated`;

// An index lookup in replay_requests: the mark, never a body.
const SELECTED = `${COLUMNS}, EXISTS (SELECT 1 FROM replay_requests q WHERE q.replay_id = replays.id) AS edited`;

const INSERT = `INSERT INTO replays (${COLUMNS}, response_body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const INSERT_REQUEST = 'INSERT INTO replay_requests (replay_id, body, body_size) VALUES (?, ?, ?)';

// Keeps the newest `limit` attempts of an account; run now and then, not on every insert.
const EVICT = `DELETE FROM replays WHERE seq IN (
  SELECT seq FROM replays WHERE account_id = ? ORDER BY created_at DESC, seq DESC LIMIT -1 OFFSET ?)`;

export class ReplayRepository {
  constructor(private readonly store: Store) {}

  async insert(r: StoredReplay, evictBeyond: number | null): Promise<void> {
    const ops: WriteOp[] = [
      {
        sql: INSERT,
        params: [
          r.id,
          r.accountId,
          r.logId,
          r.endpointId,
          r.targetUrl,
          r.method,
          r.status,
          r.responseTime,
          r.error?.code ?? null,
          r.error?.message ?? null,
          r.trigger,
          r.createdAt,
          JSON.stringify(r.requestHeaders),
          JSON.stringify(r.responseHeaders),
          r.responseTruncated ? 1 : 0,
          r.responseBody,
        ],
      },
    ];
    if (r.edited) ops.push({ sql: INSERT_REQUEST, params: [r.id, r.requestBody, r.requestBodySize] });
    if (evictBeyond !== null) ops.push({ sql: EVICT, params: [r.accountId, evictBeyond] });
    await this.store.write(ops);
  }

  /** Newest first, without response bodies. */
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
    return { rows: rows.map(decode), total: count?.n ?? 0 };
  }

  async find(accountId: string, id: string): Promise<StoredReplay | undefined> {
    const row = await this.store.get<ReplayRow>(
      `SELECT ${SELECTED}, response_body,
         (SELECT body FROM replay_requests q WHERE q.replay_id = replays.id) AS request_body,
         (SELECT body_size FROM replay_requests q WHERE q.replay_id = replays.id) AS request_body_size
       FROM replays WHERE account_id = ? AND id = ?`,
      [accountId, id],
    );
    return row ? decode(row) : undefined;
  }

  /** Status, time and trigger of every attempt since `sinceMs`, for stats. */
  async since(
    accountId: string,
    sinceMs: number,
  ): Promise<Pick<StoredReplay, 'status' | 'error' | 'responseTime' | 'trigger'>[]> {
    const rows = await this.store.all<
      Pick<ReplayRow, 'status' | 'error_code' | 'error_message' | 'response_time' | 'replay_trigger'>
    >(
      `SELECT status, error_code, error_message, response_time, replay_trigger FROM replays
       WHERE account_id = ? AND created_at >= ?`,
      [accountId, sinceMs],
    );
    return rows.map((r) => ({
      status: r.status,
      error: failure(r.error_code, r.error_message),
      responseTime: r.response_time,
      trigger: r.replay_trigger as ReplayTrigger,
    }));
  }

  /** When the endpoint's forward target last accepted a delivery (end of that attempt). */
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

  async deleteForLogs(accountId: string, logIds: readonly string[]): Promise<void> {
    if (logIds.length === 0) return;
    await this.store.write([
      {
        sql: `DELETE FROM replays WHERE account_id = ? AND log_id IN (${logIds.map(() => '?').join(', ')})`,
        params: [accountId, ...logIds],
      },
    ]);
  }
}

function failure(code: string | null, message: string | null): ReplayFailure | null {
  return code === null ? null : { code, message: message ?? '' };
}

const buffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function decode(r: ReplayRow): StoredReplay {
  const body = r.response_body;
  return {
    id: r.id,
    accountId: r.account_id,
    logId: r.log_id,
    endpointId: r.endpoint_id,
    targetUrl: r.target_url,
    method: r.method,
    status: r.status,
    responseTime: r.response_time,
    error: failure(r.error_code, r.error_message),
    trigger: r.replay_trigger as ReplayTrigger,
    createdAt: r.created_at,
    requestHeaders: JSON.parse(r.request_headers) as HeaderPairs,
    responseHeaders: JSON.parse(r.response_headers) as HeaderPairs,
    responseTruncated: r.response_truncated === 1,
    responseBody: body ? buffer(body) : Buffer.alloc(0),
    edited: r.edited === 1,
    // Null in lists (they do not select it) and for the log's own bytes; an edited empty body is an empty blob.
    requestBody: r.request_body ? buffer(r.request_body) : null,
    requestBodySize: r.request_body_size ?? null,
  };
}
