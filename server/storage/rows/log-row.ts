import { createHash } from 'node:crypto';
import type { CustomResponse } from '../../endpoints/custom-response.ts';
import type { AnswerRecord, HeaderPairs, LogStatus, NewLog, QueryObject } from '../../logs/log-types.ts';
import type { StoredLog } from '../../logs/logs-repository.ts';
import { verificationFromJson, verificationJson } from './verification-json.ts';

/**
 * Text that came from outside (a sender's path, content type and address, a derived
 * event type, a refusal's sentence): a string in sql.js, its UTF-8 bytes in
 * PostgreSQL, whose `text` refuses U+0000 (see storage/postgres/logs-migrations.ts).
 */
export type OutsideText = string | Uint8Array;

/**
 * A log as a table row, the same columns on both backends; each backend keeps its
 * SQL, its flag type (sql.js 0/1, PostgreSQL boolean) and its form of outside text.
 */
export interface LogRow {
  seq: number;
  id: string;
  account_id: string;
  endpoint_id: string;
  method: string;
  path: OutsideText;
  query: string;
  raw_headers: string;
  content_type: OutsideText | null;
  size: number;
  declared_size: number | null;
  stored_size: number;
  truncated: number | boolean;
  source_ip: OutsideText | null;
  received_at: number;
  duration_ms: number;
  status: string;
  verification: string;
  pinned: number | boolean;
  event_type: OutsideText | null;
  body?: Uint8Array | null;
  /** Only where the query reads the answer (find). */
  answer_status?: number | null;
  answer_message?: OutsideText | null;
  answer_custom_json?: string | null;
}

/**
 * What a list reads of a log (everything but the body and the answer), over `logs l`;
 * `rawHeaders` is the expression of the headers' JSON where a backend keeps them elsewhere.
 */
export const logSummaryColumns = (
  rawHeaders = 'l.raw_headers',
): string => `l.seq, l.id, l.account_id, l.endpoint_id, l.method, l.path, l.query, ${rawHeaders} AS raw_headers,
  l.content_type, l.size, l.declared_size, l.stored_size, l.truncated, l.source_ip, l.received_at, l.duration_ms, l.status, l.verification, l.pinned,
  l.event_type`;
export const LOG_SUMMARY_COLUMNS = logSummaryColumns();

/** The columns an insert writes, in the order logInsertValues gives their values. */
export const LOG_INSERT_COLUMNS = `id, account_id, endpoint_id, method, path, query, raw_headers, content_type,
  size, declared_size, stored_size, truncated, source_ip, received_at, duration_ms, status, verification, event_type,
  answer_status, answer_message, answer_custom`;

/**
 * The values of LOG_INSERT_COLUMNS: query, headers and verification (its compact form) as JSON text
 * (whose escapes never hold a raw U+0000), the backend's flag and outside text.
 */
export const logInsertValues = <Flag, Text>(
  id: string,
  log: NewLog,
  customKey: string | null,
  flag: (on: boolean) => Flag,
  text: (s: string) => Text,
) =>
  [
    id,
    log.accountId,
    log.endpointId,
    log.method,
    text(log.path),
    JSON.stringify(log.query),
    JSON.stringify(log.rawHeaders),
    nullable(log.contentType, text),
    log.size,
    log.declaredSize,
    log.body.length,
    flag(log.truncated),
    nullable(log.sourceIp, text),
    log.receivedAt,
    log.durationMs,
    log.status,
    verificationJson(log.verification),
    nullable(log.eventType, text),
    log.answer.status,
    nullable(log.answer.message, text),
    customKey,
  ] as const;

const nullable = <T>(s: string | null, text: (s: string) => T): T | null => (s === null ? null : text(s));

const outsideText = (v: OutsideText): string => (typeof v === 'string' ? v : Buffer.from(v).toString('utf8'));
const outsideTextOrNull = (v: OutsideText | null | undefined): string | null =>
  v === null || v === undefined ? null : outsideText(v);

export function logFromRow(r: LogRow): StoredLog {
  return {
    id: r.id,
    accountId: r.account_id,
    endpointId: r.endpoint_id,
    method: r.method,
    path: outsideText(r.path),
    query: JSON.parse(r.query) as QueryObject,
    rawHeaders: JSON.parse(r.raw_headers) as HeaderPairs,
    contentType: outsideTextOrNull(r.content_type),
    size: r.size,
    declaredSize: r.declared_size,
    storedSize: r.stored_size,
    truncated: r.truncated === true || r.truncated === 1,
    sourceIp: outsideTextOrNull(r.source_ip),
    receivedAt: r.received_at,
    durationMs: r.duration_ms,
    status: r.status as LogStatus,
    verification: verificationFromJson(r.verification),
    pinned: r.pinned === true || r.pinned === 1,
    eventType: outsideTextOrNull(r.event_type),
    body: r.body ? Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength) : null,
  };
}

/** The answer recorded with the log; null for a log stored before answers were recorded. */
export function answerFromRow(r: LogRow): AnswerRecord | null {
  if (r.answer_status === null || r.answer_status === undefined) return null;
  return {
    status: r.answer_status,
    message: outsideTextOrNull(r.answer_message),
    custom: r.answer_custom_json ? (JSON.parse(r.answer_custom_json) as CustomResponse) : null,
  };
}

/**
 * A custom response's stored form: its JSON, kept once per account and content under
 * the SHA-256 of that JSON. Worked out once per endpoint version (the receiver passes
 * the same object for every delivery until the endpoint changes).
 */
export class CustomAnswerKeys {
  private readonly known = new WeakMap<CustomResponse, { key: string; json: string }>();

  of(response: CustomResponse): { key: string; json: string } {
    let stored = this.known.get(response);
    if (!stored) {
      const json = JSON.stringify(response);
      stored = { key: createHash('sha256').update(json).digest('base64url'), json };
      this.known.set(response, stored);
    }
    return stored;
  }
}
