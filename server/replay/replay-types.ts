/**
 * The replay feature's contract with the features that read its results
 * (metrics, remediation, diagnose). They depend on these types and on
 * ReplayReader, never on replay's tables.
 */
import type { HeaderPairs } from '../logs/log-types.ts';
import { isoTime } from '../support/clock.ts';
import type { ReplayHistoryEntry } from './replay-schemas.ts';

import type { ReplayTrigger } from './replay-states.ts';

export type { ForwardState, ReplayTrigger } from './replay-states.ts';

/**
 * A forward not sent because the delivery's sub-path could lead outside the
 * forwardUrl (server/replay/join-sub-path.ts). Its message quotes the sender's
 * path, so readers must match this code, not words of the message.
 */
export const UNSAFE_SUB_PATH = 'UNSAFE_SUB_PATH';

export interface ReplayFailure {
  /** `TARGET_UNREACHABLE` (DNS, refused, reset), `TARGET_TIMEOUT`, ... */
  code: string;
  message: string;
}

/** One attempt to send a stored delivery to a target. */
export interface ReplayRecord {
  id: string;
  accountId: string;
  logId: string;
  endpointId: string;
  targetUrl: string;
  method: string;
  /** The target's HTTP status; null when no response came (see `error`). */
  status: number | null;
  /** Milliseconds from sending to the end of the response (or to the failure). */
  responseTime: number;
  error: ReplayFailure | null;
  trigger: ReplayTrigger;
  createdAt: number;
  /**
   * The user changed the method, a header or the body before sending: the request
   * differs from a plain replay to the same target. Re-signing alone is no edit
   * (the engine wrote those headers), and forwards are never edited.
   */
  edited: boolean;
}

/** A replay or forward failed when no response came or the target answered 4xx/5xx. */
export const replayFailed = (r: Pick<ReplayRecord, 'status' | 'error'>): boolean =>
  r.error !== null || r.status === null || r.status >= 400;

export interface ReplayStats {
  total: number;
  succeeded: number;
  failed: number;
  byTrigger: Record<ReplayTrigger, number>;
  /** Response-time percentiles over attempts in the window; null when there were none. */
  p50Ms: number | null;
  p95Ms: number | null;
}

/** What other features may ask of replay. Every call is scoped by account. */
export interface ReplayReader {
  /** Newest first. */
  history(accountId: string, logId: string, limit?: number): Promise<ReplayRecord[]>;
  /** Attempts created at or after `sinceMs`, for metrics. */
  stats(accountId: string, sinceMs: number): Promise<ReplayStats>;
}

// ---- Below: replay's own shapes (the API's and the repository's), not part of the contract above.

export type { HeaderPairs };
export type BodyEncoding = 'utf8' | 'base64';

/** A record as stored: the contract's fields plus what was sent and what came back. */
export interface StoredReplay extends ReplayRecord {
  requestHeaders: HeaderPairs;
  /**
   * The body sent when it differs from the log's bytes (an edited body), at most
   * its first EDITED_BODY_CAP_BYTES; null: the log's own bytes.
   */
  requestBody: Buffer | null;
  /** The whole size of that edited body (more than requestBody's length when cut); null with requestBody. */
  requestBodySize: number | null;
  responseHeaders: HeaderPairs;
  /** At most the response cap; `responseTruncated` when the target sent more. */
  responseBody: Buffer;
  responseTruncated: boolean;
}

/** A history entry as the API shows it (replay history, `replay.completed` events, diagnose's recent replays). */
export function historyEntry(r: ReplayRecord): ReplayHistoryEntry {
  return {
    id: r.id,
    logId: r.logId,
    endpointId: r.endpointId,
    targetUrl: r.targetUrl,
    method: r.method,
    status: r.status,
    responseTime: r.responseTime,
    error: r.error,
    trigger: r.trigger,
    createdAt: isoTime(r.createdAt),
    edited: r.edited,
  };
}
