import type { LogStatus, NewLog } from '../../server/logs/log-types.ts';
import { ACCEPTED, VERIFICATION_FAILED } from '../../server/logs/sender-answers.ts';

/**
 * A delivery as the receiver hands it to a logs repository: a JSON body, one
 * header, received at a fixed time; a failed one failed its signature check and
 * was answered as such. `over` sets anything else.
 */
export function newLog(body: string, status: LogStatus = 'success', over: Partial<NewLog> = {}): NewLog {
  const bytes = Buffer.from(body);
  return {
    accountId: 'acc_a',
    endpointId: 'ep_1',
    method: 'POST',
    path: '/',
    query: {},
    rawHeaders: [['content-type', 'application/json']],
    contentType: 'application/json',
    size: bytes.length,
    declaredSize: bytes.length,
    body: bytes,
    truncated: false,
    sourceIp: '127.0.0.1',
    receivedAt: 1_700_000_000_000,
    durationMs: 1,
    status,
    verification:
      status === 'failed'
        ? { scheme: 'hmac_sha256', result: 'invalid', reason: 'missing_header', detail: null, matchedSecret: null }
        : { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
    eventType: null,
    answer: status === 'failed' ? VERIFICATION_FAILED : ACCEPTED,
    ...over,
  };
}
