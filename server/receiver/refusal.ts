import type { LogVerification } from '../logs/logs-schemas.ts';
import type { BodyLimits, BodyRead } from './body-reader.ts';

/** What the sender is told, and what the stored log says, when reading stopped early. */
export interface Refusal {
  status: number;
  code: string;
  reason: Exclude<LogVerification['reason'], null>;
  message: string;
  detail: string;
  headers: Record<string, string>;
  /**
   * The rest of the body is still being read and discarded (413, 503): the
   * connection must outlive the answer until it is, or the bytes arriving on a
   * closed socket reset it and the sender may never read the answer.
   */
  drains: boolean;
}

/** Why reading stopped early, for the sender and the stored log; null for a complete (or abandoned) body. */
export function refusalFor(read: BodyRead, l: BodyLimits, budgetBytes: number): Refusal | null {
  const kept = `${read.size} bytes arrived${read.body.length < read.size ? `; the first ${read.body.length} were kept` : ''}`;
  const ofDeclared = read.declaredSize !== null ? ` of ${read.declaredSize} declared` : '';
  // A cut-off sender is slow, not still writing: the connection closes after the answer.
  const timedOut = (reason: 'body_timeout' | 'request_timeout', message: string, detail: string): Refusal => ({
    status: 408,
    code: 'REQUEST_TIMEOUT',
    reason,
    message,
    detail: `${detail} (${kept}${ofDeclared}).`,
    headers: { connection: 'close' },
    drains: false,
  });
  switch (read.outcome) {
    case 'complete':
    case 'aborted':
      return null;
    case 'too_large':
      return {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        reason: 'payload_too_large',
        message: `The body is larger than this endpoint accepts (${l.maxBytes} bytes).`,
        detail:
          read.declaredSize !== null && read.declaredSize > l.maxBytes
            ? `Content-Length declared ${read.declaredSize} bytes, over the ${l.maxBytes}-byte limit; refused before reading the body.`
            : `The body grew past the ${l.maxBytes}-byte limit (${kept}).`,
        headers: {},
        drains: true,
      };
    case 'over_budget':
      return {
        status: 503,
        code: 'SERVER_BUSY',
        reason: 'server_busy',
        message: 'The receiver is holding as many body bytes as it allows at once; retry shortly.',
        detail: `Deliveries in flight hold the receiver's in-memory body budget (${budgetBytes} bytes); ${kept}.`,
        headers: { 'retry-after': '1' },
        drains: true,
      };
    case 'idle_timeout':
      return timedOut(
        'body_timeout',
        `No body bytes arrived for ${l.idleMs} ms; the delivery was cut off.`,
        `The sender paused for more than ${l.idleMs} ms in the body`,
      );
    case 'request_timeout':
      return timedOut(
        'request_timeout',
        `The body did not arrive within ${l.requestMs} ms; the delivery was cut off.`,
        `The body took longer than ${l.requestMs} ms after the headers`,
      );
  }
}
