import { isUtf8 } from 'node:buffer';
import type { Cookie, Creator, Har, PostData, QueryString } from 'har-format';
import type { HeaderPairs } from '../logs/log-types.ts';
import type { StoredLogWithBody } from '../logs/logs-service.ts';
import { isoTime } from '../support/clock.ts';
import { headerText } from '../support/header-text.ts';

/**
 * HAR 1.2 defines `encoding` on response content only; a request body that is
 * not UTF-8 is written as base64 with the same field on postData (see buildHar),
 * so the library's PostData type gets it added here.
 */
type HarPostData = PostData & { encoding?: 'base64' };

/** `a=1; b=2` into HAR cookies (the Cookie request header; nothing is decoded). */
function cookiesOf(rawHeaders: HeaderPairs): Cookie[] {
  const out: Cookie[] = [];
  for (const [n, v] of rawHeaders) {
    if (n.toLowerCase() !== 'cookie') continue;
    for (const part of v.split(';')) {
      const eq = part.indexOf('=');
      if (part.trim() === '') continue;
      out.push(
        eq === -1
          ? { name: part.trim(), value: '' }
          : { name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() },
      );
    }
  }
  return out;
}

/**
 * One HAR 1.2 entry for the received request. The request is what arrived (its
 * headers as received, Host included); HAR requires a response, and there is
 * none to record (the receiver's own answer is not the point), so it is the
 * spec's "no response" form: status 0 and sizes -1. A body that is not UTF-8
 * is written as base64 with `encoding: "base64"` (the form HAR tools accept,
 * as in content.encoding).
 */
export function buildHar(
  d: Pick<
    StoredLogWithBody,
    | 'id'
    | 'method'
    | 'rawHeaders'
    | 'body'
    | 'contentType'
    | 'receivedAt'
    | 'durationMs'
    | 'truncated'
    | 'storedSize'
    | 'size'
  >,
  url: string,
  creator: Creator,
): Har {
  const { body } = d;
  const headers = d.rawHeaders.map(([name, value]) => ({ name, value: headerText(value) }));
  const target = new URL(url);
  const queryString: QueryString[] = [...target.searchParams].map(([name, value]) => ({ name, value }));
  const requestLine = `${d.method} ${target.pathname}${target.search} HTTP/1.1\r\n`;
  const headersSize =
    Buffer.byteLength(requestLine) +
    d.rawHeaders.reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${v}\r\n`, 'latin1'), 0) +
    2;
  const mimeType = d.contentType ?? 'application/octet-stream';
  const postData: HarPostData | undefined =
    body.length === 0
      ? undefined
      : isUtf8(body)
        ? { mimeType, text: body.toString('utf8') }
        : { mimeType, text: body.toString('base64'), encoding: 'base64' };
  return {
    log: {
      version: '1.2',
      creator,
      entries: [
        {
          startedDateTime: isoTime(d.receivedAt),
          time: d.durationMs,
          request: {
            method: d.method,
            url,
            httpVersion: 'HTTP/1.1',
            cookies: cookiesOf(d.rawHeaders),
            headers,
            queryString,
            ...(postData ? { postData } : {}),
            headersSize,
            bodySize: body.length,
          },
          response: {
            status: 0,
            statusText: '',
            httpVersion: '',
            cookies: [],
            headers: [],
            content: { size: 0, mimeType: 'x-unknown' },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
            comment: 'A received webhook: no response is recorded.',
          },
          cache: {},
          timings: { send: 0, wait: d.durationMs, receive: 0 },
          comment: `Hookscope log ${d.id}${d.truncated ? ` (body truncated: ${d.storedSize} of ${d.size} bytes kept)` : ''}`,
        },
      ],
    },
  };
}
