import { isUtf8 } from 'node:buffer';
import { isoTime } from '../support/clock.ts';
import { headerObject } from '../support/headers.ts';
import type { LogDetail, LogSummary } from './logs-schemas.ts';
import type { StoredLog } from './logs-repository.ts';

/** A stored log as the list shows it. */
export function summaryView(l: StoredLog): LogSummary {
  return {
    id: l.id,
    endpointId: l.endpointId,
    method: l.method,
    path: l.path,
    query: l.query,
    contentType: l.contentType,
    size: l.size,
    declaredSize: l.declaredSize,
    storedSize: l.storedSize,
    truncated: l.truncated,
    sourceIp: l.sourceIp,
    receivedAt: isoTime(l.receivedAt),
    durationMs: l.durationMs,
    status: l.status,
    verification: l.verification,
    pinned: l.pinned,
    eventType: l.eventType,
  };
}

/** A stored log with its headers and body, as `GET /api/webhooks/logs/:logId` answers it. */
export function detailView(l: StoredLog): LogDetail {
  const body = l.body ?? Buffer.alloc(0);
  const utf8 = isUtf8(body);
  return {
    ...summaryView(l),
    headers: headerObject(l.rawHeaders),
    rawHeaders: l.rawHeaders,
    body: body.toString(utf8 ? 'utf8' : 'base64'),
    bodyEncoding: utf8 ? 'utf8' : 'base64',
  };
}
