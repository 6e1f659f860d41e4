import type { LogDetail } from '../logs/logs-schemas.ts';

/**
 * Headers a reconstruction must not copy: the transport of the original
 * connection (Host names the old target, the length and framing are the new
 * client's job) rather than the content of the delivery.
 */
const TRANSPORT_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

export const isTransportHeader = (name: string): boolean => TRANSPORT_HEADERS.has(name.toLowerCase());

/** The exact stored bytes of the body. */
export const bodyBytes = (d: Pick<LogDetail, 'body' | 'bodyEncoding'>): Buffer => Buffer.from(d.body, d.bodyEncoding);

/** The query object back as a query string (`?a=1&a=2`), or '' when empty. */
export function queryString(query: LogDetail['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * Where a delivery was sent: the endpoint's receiver URL, the sub-path below it
 * (an empty sub-path is stored as `/` and rebuilt without the slash) and the query.
 */
export function originalUrl(receiverBase: string, d: Pick<LogDetail, 'endpointId' | 'path' | 'query'>): string {
  const sub = d.path === '/' ? '' : d.path;
  return `${receiverBase}/webhook/${d.endpointId}${sub}${queryString(d.query)}`;
}

/** The headers to send again, in received order and case. */
export const replayableHeaders = (d: Pick<LogDetail, 'rawHeaders'>): [string, string][] =>
  d.rawHeaders.filter(([n]) => !isTransportHeader(n));
