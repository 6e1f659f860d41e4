/** A share link as stored: the token itself is never kept, only its SHA-256. */
export interface ShareRecord {
  tokenHash: string;
  accountId: string;
  logId: string;
  endpointId: string;
  redact: boolean;
  /** Hide every path segment after the first (redaction.ts, redactPath). */
  redactPath: boolean;
  createdAt: number;
  expiresAt: number;
}

export interface CreateShareInput {
  expiresInHours: number;
  redact: boolean;
  redactPath: boolean;
}
