import type { LogDetail } from '../logs/logs-schemas.ts';
import { headerText } from '../support/header-text.ts';
import { bodyBytes } from './request-parts.ts';

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarCreator {
  name: string;
  version: string;
}

/** The parts of HAR 1.2 we write (http://www.softwareishard.com/blog/har-12-spec/). */
export interface Har {
  log: {
    version: '1.2';
    creator: HarCreator;
    entries: {
      startedDateTime: string;
      time: number;
      request: {
        method: string;
        url: string;
        httpVersion: string;
        cookies: HarNameValue[];
        headers: HarNameValue[];
        queryString: HarNameValue[];
        postData?: { mimeType: string; text: string; encoding?: 'base64'; comment?: string };
        headersSize: number;
        bodySize: number;
      };
      response: {
        status: number;
        statusText: string;
        httpVersion: string;
        cookies: HarNameValue[];
        headers: HarNameValue[];
        content: { size: number; mimeType: string };
        redirectURL: string;
        headersSize: number;
        bodySize: number;
        comment: string;
      };
      cache: Record<string, never>;
      timings: { send: number; wait: number; receive: number };
      comment?: string;
    }[];
  };
}

/** `a=1; b=2` into HAR cookies (the Cookie request header; nothing is decoded). */
function cookiesOf(rawHeaders: LogDetail['rawHeaders']): HarNameValue[] {
  const out: HarNameValue[] = [];
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
export function buildHar(d: LogDetail, url: string, creator: HarCreator): Har {
  const body = bodyBytes(d);
  const headers = d.rawHeaders.map(([name, value]) => ({ name, value: headerText(value) }));
  const target = new URL(url);
  const queryString: HarNameValue[] = [...target.searchParams].map(([name, value]) => ({ name, value }));
  const requestLine = `${d.method} ${target.pathname}${target.search} HTTP/1.1\r\n`;
  const headersSize =
    Buffer.byteLength(requestLine) +
    d.rawHeaders.reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${v}\r\n`, 'latin1'), 0) +
    2;
  const mimeType = d.contentType ?? 'application/octet-stream';
  const postData =
    body.length === 0
      ? undefined
      : d.bodyEncoding === 'utf8'
        ? { mimeType, text: body.toString('utf8') }
        : { mimeType, text: body.toString('base64'), encoding: 'base64' as const };
  return {
    log: {
      version: '1.2',
      creator,
      entries: [
        {
          startedDateTime: d.receivedAt,
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
