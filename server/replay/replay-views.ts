import { headerObject } from '../support/headers.ts';
import { isoTime } from '../support/clock.ts';
import { encodeBody } from './http-sender.ts';
import type { ReplayDiff, ReplaySide } from './replay-diff.ts';
import type { OutgoingRequestView, ReplayDetail, ReplayDiffView, ReplayExchange } from './replay-schemas.ts';
import type { OutgoingRequest, SentReplay } from './replay-service.ts';
import { historyEntry, type StoredReplay } from './replay-types.ts';

/** An attempt as a replay answers it: the history entry with what was sent and what came back. */
export function replayDetailView(r: StoredReplay): ReplayDetail {
  const body = encodeBody(r.responseBody, r.responseTruncated);
  return {
    ...historyEntry(r),
    requestHeaders: r.requestHeaders,
    responseHeaders: { ...headerObject(r.responseHeaders) },
    responseRawHeaders: r.responseHeaders,
    responseBody: body.text,
    bodyEncoding: body.encoding,
    truncated: r.responseTruncated,
  };
}

/** An attempt with the request body as sent (GET .../replays/:replayId). */
export function replayExchangeView(x: SentReplay): ReplayExchange {
  const truncated = x.requestBodySize > x.requestBody.length;
  // A cut inside a UTF-8 character drops that character rather than turning the whole text into base64, as responses do.
  const body = encodeBody(x.requestBody, truncated);
  return {
    ...replayDetailView(x.replay),
    requestBody: body.text,
    requestBodyEncoding: body.encoding,
    requestBodySize: x.requestBodySize,
    requestBodyTruncated: truncated,
  };
}

export function outgoingRequestView(r: OutgoingRequest): OutgoingRequestView {
  const body = encodeBody(r.body, false);
  return {
    method: r.method,
    url: r.url.href,
    headers: r.headers,
    body: body.text,
    bodyEncoding: body.encoding,
    edited: r.edited,
  };
}

const sideView = (s: ReplaySide): ReplayDiffView['a'] => ({ ...s, createdAt: isoTime(s.createdAt) });

export function replayDiffView(d: ReplayDiff): ReplayDiffView {
  return { ...d, a: sideView(d.a), b: sideView(d.b) };
}
