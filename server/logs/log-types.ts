import type { VerificationResult } from '../receiver/verifiers/verifier-types.ts';

export type LogStatus = 'success' | 'failed';
export const LOG_STATUSES = ['success', 'failed'] as const;

export type QueryObject = Record<string, string | string[]>;
export type HeaderPairs = [string, string][];

export interface LogVerification {
  scheme: VerificationResult['scheme'];
  result: VerificationResult['result'];
  reason: VerificationResult['reason'];
  detail: string | null;
  matchedSecret: VerificationResult['matchedSecret'];
}

/** A capture as the receiver hands it over. */
export interface NewLog {
  accountId: string;
  endpointId: string;
  method: string;
  path: string;
  query: QueryObject;
  rawHeaders: HeaderPairs;
  contentType: string | null;
  /** Bytes the sender sent (or declared, when the body was refused as too large). */
  size: number;
  /** The stored bytes: the whole body, or its first bytes when `truncated`. */
  body: Buffer;
  truncated: boolean;
  sourceIp: string | null;
  receivedAt: number;
  durationMs: number;
  status: LogStatus;
  verification: LogVerification;
}

/** A log in lists: no body, no headers. */
export interface LogSummary {
  id: string;
  endpointId: string;
  method: string;
  path: string;
  query: QueryObject;
  contentType: string | null;
  size: number;
  storedSize: number;
  truncated: boolean;
  sourceIp: string | null;
  receivedAt: string;
  durationMs: number;
  status: LogStatus;
  verification: LogVerification;
}

export interface LogDetail extends LogSummary {
  headers: Record<string, string | string[]>;
  rawHeaders: HeaderPairs;
  body: string;
  bodyEncoding: 'utf8' | 'base64';
}

export interface LogQuery {
  limit: number;
  offset: number;
  status?: LogStatus;
  search?: string;
  endpointId?: string;
}

export interface LogPage {
  logs: LogSummary[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}
