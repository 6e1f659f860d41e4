import { isUtf8 } from 'node:buffer';
import { isoTime } from '../support/clock.ts';
import { headerObject } from '../support/headers.ts';
import type { LogDetail, LogDetailView, LogPage, LogSummary, SenderAnswerView } from './logs-schemas.ts';
import type { StoredLog } from './logs-repository.ts';
import type { LogReading, LogsPage } from './logs-service.ts';
import type { SenderAnswer } from './sender-answers.ts';

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

/** A page of logs as the list shows it. */
export function pageView(p: LogsPage): LogPage {
  return { ...p, logs: p.logs.map(summaryView) };
}

/** A stored log with its headers and body (the detail, a share link's JSON, a JSON export). */
export function detailView(l: StoredLog): LogDetail {
  return {
    ...summaryView(l),
    headers: headerObject(l.rawHeaders),
    rawHeaders: l.rawHeaders,
    ...bodyText(l.body ?? Buffer.alloc(0)),
  };
}

/** The detail with the sender's answer and whether Explain applies. */
export function readingView(r: LogReading): LogDetailView {
  return {
    ...detailView(r.log),
    answer: r.answer.answer && answerView(r.answer.answer),
    answerUnknown: r.answer.unknown,
    explainable: r.explainable,
  };
}

function answerView(a: SenderAnswer): SenderAnswerView {
  return { kind: a.kind, status: a.status, headers: a.headers, ...bodyText(a.body), delayMs: a.delayMs };
}

/** UTF-8 text as it is, anything else as base64. */
function bodyText(body: Buffer): { body: string; bodyEncoding: 'utf8' | 'base64' } {
  const utf8 = isUtf8(body);
  return { body: body.toString(utf8 ? 'utf8' : 'base64'), bodyEncoding: utf8 ? 'utf8' : 'base64' };
}
