import type { CustomResponse } from '../endpoints/custom-response.ts';
import type { LogVerification } from './logs-schemas.ts';

import type { LogStatus } from './log-status.ts';

export { LOG_STATUSES, type LogStatus } from './log-status.ts';

/** How many logs one delete request may name (`POST /api/webhooks/logs/delete`). */
export const MAX_DELETE_IDS = 1000;

export type QueryObject = Record<string, string | string[]>;
export type HeaderPairs = [string, string][];

/** A capture as the receiver hands it over. */
export interface NewLog {
  accountId: string;
  endpointId: string;
  method: string;
  path: string;
  query: QueryObject;
  rawHeaders: HeaderPairs;
  contentType: string | null;
  /** Bytes actually received (up to where the receiver stopped reading, when it refused the body). */
  size: number;
  /** The Content-Length the sender declared, null when it sent none (chunked). */
  declaredSize: number | null;
  /** The stored bytes: the whole body, or its first bytes when `truncated`. */
  body: Buffer;
  truncated: boolean;
  sourceIp: string | null;
  receivedAt: number;
  durationMs: number;
  status: LogStatus;
  verification: LogVerification;
  /** The event the delivery names (`eventTypeOf`, derived once at capture), or null. */
  eventType: string | null;
  /** What the receiver answered the sender. */
  answer: AnswerRecord;
}

/**
 * What the receiver answered a stored delivery, as far as the rest of the log does
 * not say it: the detail rebuilds the whole answer from the log and this
 * (sender-answers.ts), so the receiver's hot path keeps one integer for the
 * common answers.
 */
export interface AnswerRecord {
  /** The status sent. */
  status: number;
  /** A refusal's sentence (413, 408, 503): it names the limit in force then, which the log does not keep. */
  message: string | null;
  /**
   * The endpoint's custom response when it was the answer (on the receiver and
   * tunnel listeners), as it was then: the endpoint may change it later.
   */
  custom: CustomResponse | null;
}

export interface LogQuery {
  limit: number;
  offset: number;
  status?: LogStatus;
  search?: string;
  endpointId?: string;
  /** Only pinned logs (true) or only unpinned ones (false). */
  pinned?: boolean;
  /** Only logs of this event type (exact match). */
  eventType?: string;
}

/**
 * A page after a cursor: the account's logs that arrived after the log `after`
 * (the store's arrival order, `seq`), oldest first, with the filters of a list.
 * No offset (the cursor is the place) and no search (a search is read whole,
 * newest first).
 */
export interface LogCursorQuery extends Omit<LogQuery, 'offset' | 'search'> {
  after: string;
}

/** What metrics asks of the logs: stored deliveries received in [fromMs, toMs). */
export interface LogStatsQuery {
  fromMs: number;
  toMs: number;
  /** Bucket width; buckets are counted from fromMs. */
  bucketMs: number;
  endpointId?: string;
}

/** Counts of one endpoint in one bucket (only non-empty cells are returned). */
export interface LogStatsCell {
  endpointId: string;
  bucket: number;
  success: number;
  failed: number;
  lastReceivedAt: number;
}

/** Sizes in bytes as the sender sent them (`size`, not the stored prefix of an over-limit body). */
export interface LogSizeStats {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  p50: number | null;
  p95: number | null;
}

export interface LogStats {
  cells: LogStatsCell[];
  /** Failed deliveries by verification.reason, most first (ties by reason). */
  failureReasons: { reason: string; count: number }[];
  sizes: LogSizeStats;
}
