import type { HeaderPairs, QueryObject } from '../logs/log-types.ts';
import type { StoredLogWithBody } from '../logs/logs-service.ts';

/** What a reconstruction (cURL, raw HTTP) reads of a stored delivery: its request line, headers and exact bytes. */
export type StoredRequest = Pick<StoredLogWithBody, 'method' | 'rawHeaders' | 'body'>;

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

/** The query object back as a query string (`?a=1&a=2`), or '' when empty. */
export function queryString(query: QueryObject): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * Where a delivery was sent: the endpoint's receiver URL, the sub-path below it
 * (an empty sub-path is stored as `/` and rebuilt without the slash) and the query.
 */
export function originalUrl(receiverBase: string, d: Pick<StoredLogWithBody, 'endpointId' | 'path' | 'query'>): string {
  const sub = d.path === '/' ? '' : d.path;
  return `${receiverBase}/webhook/${d.endpointId}${sub}${queryString(d.query)}`;
}

/** The headers to send again, in received order and case. */
export const replayableHeaders = (d: { rawHeaders: HeaderPairs }): HeaderPairs =>
  d.rawHeaders.filter(([n]) => !isTransportHeader(n));
