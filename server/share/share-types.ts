/** A share link as stored: the token itself is never kept, only its SHA-256. */
export interface ShareRecord {
  tokenHash: string;
  accountId: string;
  logId: string;
  endpointId: string;
  redact: boolean;
  createdAt: number;
  expiresAt: number;
}

export interface CreateShareInput {
  expiresInHours: number;
  redact: boolean;
}

/** What POST /share answers; the only time the link (and so the token) is shown. */
export interface ShareView {
  logId: string;
  url: string;
  expiresAt: string;
  expiresInHours: number;
  redacted: boolean;
  /** No tunnel is online: the link points at this machine's receiver and works only here. */
  localOnly: boolean;
  /** Set when browsers meet a warning page on the public URL (localtunnel): what the teammate must do, or the exports to use instead. */
  browserNotice: string | null;
  createdAt: string;
}
