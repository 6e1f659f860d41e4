import { PayloadTooLargeError, RequestTimeoutError, ServerBusyError, type AppError } from '../errors/app-errors.ts';
import type { LogVerification } from '../logs/logs-schemas.ts';
import type { BodyLimits, BodyRead } from './body-reader.ts';

type RefusalReason = Exclude<LogVerification['reason'], null>;

/** What the sender is told, and what the stored log says, when reading stopped early. */
export interface Refusal {
  reason: RefusalReason;
  detail: string;
  /** The sender's answer (status, code, message, headers), naming the stored log. */
  error(logId: string): AppError;
  /**
   * The rest of the body is still being read and discarded (413, 503): the
   * connection must outlive the answer until it is, or the bytes arriving on a
   * closed socket reset it and the sender may never read the answer.
   */
  drains: boolean;
}

/** The 503's `Retry-After` (docs/API.md "Limits and refusals"). */
const SERVER_BUSY_RETRY_SECONDS = 1;

/** Why reading stopped early, for the sender and the stored log; null for a complete (or abandoned) body. */
export function refusalFor(read: BodyRead, l: BodyLimits, budgetBytes: number): Refusal | null {
  const kept = `${read.size} bytes arrived${read.body.length < read.size ? `; the first ${read.body.length} were kept` : ''}`;
  const ofDeclared = read.declaredSize !== null ? ` of ${read.declaredSize} declared` : '';
  // A cut-off sender is slow, not still writing: the connection closes after the answer.
  const timedOut = (reason: 'body_timeout' | 'request_timeout', message: string, detail: string): Refusal => ({
    reason,
    detail: `${detail} (${kept}${ofDeclared}).`,
    error: (logId) => new RequestTimeoutError(message, { logId, reason }),
    drains: false,
  });
  switch (read.outcome) {
    case 'complete':
    case 'aborted':
      return null;
    case 'too_large':
      return {
        reason: 'payload_too_large',
        detail:
          read.declaredSize !== null && read.declaredSize > l.maxBytes
            ? `Content-Length declared ${read.declaredSize} bytes, over the ${l.maxBytes}-byte limit; refused before reading the body.`
            : `The body grew past the ${l.maxBytes}-byte limit (${kept}).`,
        error: (logId) =>
          new PayloadTooLargeError(`The body is larger than this endpoint accepts (${l.maxBytes} bytes).`, {
            logId,
            reason: 'payload_too_large',
          }),
        drains: true,
      };
    case 'over_budget':
      return {
        reason: 'server_busy',
        detail: `Deliveries in flight hold the receiver's in-memory body budget (${budgetBytes} bytes); ${kept}.`,
        error: (logId) =>
          new ServerBusyError(
            'The receiver is holding as many body bytes as it allows at once; retry shortly.',
            SERVER_BUSY_RETRY_SECONDS,
            { logId, reason: 'server_busy' },
          ),
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
