import type { ReplayOutcome } from '../../replay/replay-repository.ts';
import type { HeaderPairs, ReplayFailure, ReplayTrigger, StoredReplay } from '../../replay/replay-types.ts';

/**
 * A replay attempt as a table row, the same on both backends: the columns, their
 * order, and the record read from and written to them. A backend keeps its SQL and
 * its ReplayColumnCodec.
 */
export interface ReplayRow {
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
  response_truncated: number | boolean;
  edited: number | boolean;
  response_body?: Uint8Array;
  request_body?: Uint8Array | null;
  request_body_size?: number | null;
}

export type OutcomeRow = Pick<
  ReplayRow,
  'status' | 'error_code' | 'error_message' | 'response_time' | 'replay_trigger'
>;

/** Every column but the response body, in the order replayValues gives their values (the body's comes last). */
export const REPLAY_COLUMNS = `id, account_id, log_id, endpoint_id, target_url, method, status, response_time, error_code,
  error_message, replay_trigger, created_at, request_headers, response_headers, response_truncated`;

/** How a backend stores what SQL has no common type for. */
export interface ReplayColumnCodec<Flag> {
  flag(on: boolean): Flag;
  /**
   * target_url, method and error_message as stored: free text that can come from
   * outside (an error quotes a sender's path or a target's answer), so it may hold
   * U+0000, which sql.js keeps and PostgreSQL's `text` refuses.
   */
  text(value: string): string;
  /** The inverse of `text`. */
  fromText(stored: string): string;
}

/** The values of REPLAY_COLUMNS and then response_body. */
export const replayValues = <Flag>(r: StoredReplay, codec: ReplayColumnCodec<Flag>) =>
  [
    r.id,
    r.accountId,
    r.logId,
    r.endpointId,
    codec.text(r.targetUrl),
    codec.text(r.method),
    r.status,
    r.responseTime,
    r.error?.code ?? null,
    r.error ? codec.text(r.error.message) : null,
    r.trigger,
    r.createdAt,
    JSON.stringify(r.requestHeaders),
    JSON.stringify(r.responseHeaders),
    codec.flag(r.responseTruncated),
    r.responseBody,
  ] as const;

const isSet = (v: number | boolean): boolean => v === true || v === 1;

const buffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function failure(code: string | null, message: string | null, codec: ReplayColumnCodec<unknown>): ReplayFailure | null {
  return code === null ? null : { code, message: message === null ? '' : codec.fromText(message) };
}

export function replayFromRow(r: ReplayRow, codec: ReplayColumnCodec<unknown>): StoredReplay {
  const body = r.response_body;
  return {
    id: r.id,
    accountId: r.account_id,
    logId: r.log_id,
    endpointId: r.endpoint_id,
    targetUrl: codec.fromText(r.target_url),
    method: codec.fromText(r.method),
    status: r.status,
    responseTime: r.response_time,
    error: failure(r.error_code, r.error_message, codec),
    trigger: r.replay_trigger as ReplayTrigger,
    createdAt: r.created_at,
    // Written by replayValues from HeaderPairs.
    requestHeaders: JSON.parse(r.request_headers) as HeaderPairs,
    responseHeaders: JSON.parse(r.response_headers) as HeaderPairs,
    responseTruncated: isSet(r.response_truncated),
    responseBody: body ? buffer(body) : Buffer.alloc(0),
    edited: isSet(r.edited),
    // Null in lists (they do not select it) and for the log's own bytes; an edited empty body is an empty blob.
    requestBody: r.request_body ? buffer(r.request_body) : null,
    requestBodySize: r.request_body_size ?? null,
  };
}

export const outcomeFromRow = (r: OutcomeRow, codec: ReplayColumnCodec<unknown>): ReplayOutcome => ({
  status: r.status,
  error: failure(r.error_code, r.error_message, codec),
  responseTime: r.response_time,
  trigger: r.replay_trigger as ReplayTrigger,
});
