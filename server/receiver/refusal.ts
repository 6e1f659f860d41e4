import type { RefusalReason } from '../logs/sender-answers.ts';
import type { BodyLimits, BodyRead } from './body-reader.ts';

/** What the sender is told, and what the stored log says, when reading stopped early. */
export interface Refusal {
  reason: RefusalReason;
  detail: string;
  /**
   * The sentence the sender is told (refusalError makes the answer of it); the log
   * keeps it, as it names a limit in force now.
   */
  message: string;
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
    reason,
    detail: `${detail} (${kept}${ofDeclared}).`,
    message,
    drains: false,
  });
  switch (read.outcome) {
    case 'complete':
    case 'aborted':
      return null;
    case 'too_large': {
      const message = `The body is larger than this endpoint accepts (${l.maxBytes} bytes).`;
      return {
        reason: 'payload_too_large',
        detail:
          read.declaredSize !== null && read.declaredSize > l.maxBytes
            ? `Content-Length declared ${read.declaredSize} bytes, over the ${l.maxBytes}-byte limit; refused before reading the body.`
            : `The body grew past the ${l.maxBytes}-byte limit (${kept}).`,
        message,
        drains: true,
      };
    }
    case 'over_budget': {
      const message = 'The receiver is holding as many body bytes as it allows at once; retry shortly.';
      return {
        reason: 'server_busy',
        detail: `Deliveries in flight hold the receiver's in-memory body budget (${budgetBytes} bytes); ${kept}.`,
        message,
        drains: true,
      };
    }
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
