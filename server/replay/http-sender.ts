import { isUtf8 } from 'node:buffer';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { headerPairs } from '../support/headers.ts';
import type { BodyEncoding, HeaderPairs, ReplayFailure } from './replay-types.ts';

/** The most of a target's response body kept in history. */
export const RESPONSE_CAP_BYTES = 64 * 1024;

export interface SendInput {
  url: URL;
  method: string;
  /** Final headers in order, Host and Content-Length included (see buildHeaders). */
  headers: HeaderPairs;
  body: Buffer;
  timeoutMs: number;
  /** Aborts the request (engine stop); the result is then a TARGET_UNREACHABLE failure nobody records. */
  signal?: AbortSignal;
}

export interface SendResult {
  status: number | null;
  responseHeaders: HeaderPairs;
  responseBody: Buffer;
  responseTruncated: boolean;
  /** Whole milliseconds from sending to the end of the response or the failure. */
  responseTime: number;
  error: ReplayFailure | null;
}

export const UNREACHABLE = 'TARGET_UNREACHABLE';
export const TIMEOUT = 'TARGET_TIMEOUT';
export const NOT_SENT = 'REQUEST_NOT_SENT';
/** Every failure code `send` reports: what a client that sends with it may report too. */
export const SEND_FAILURES = [UNREACHABLE, TIMEOUT, NOT_SENT] as const;

/**
 * Sends one request with node:http/https rather than fetch: fetch forbids some
 * headers (Host, Connection, ...), lower-cases names and may reorder them, while
 * a replay must send the original headers in their order and case. The headers
 * go as Node's flat raw array, which keeps order, case and repeats. No agent:
 * each request has its own connection, so nothing lingers after an engine stop.
 * Never rejects: every failure is described in the result.
 */
export function send(input: SendInput): Promise<SendResult> {
  const started = performance.now();
  const elapsed = (): number => Math.max(0, Math.round(performance.now() - started));
  const target = input.url.href;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    let responseHeaders: HeaderPairs = [];
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let req: ReturnType<typeof httpRequest> | undefined;
    const onAbort = (): void =>
      finish({ code: UNREACHABLE, message: `The request to ${target} was cancelled (the engine is stopping).` });
    const finish = (error: ReplayFailure | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
      req?.destroy();
      resolve({
        status: error ? null : status,
        responseHeaders: error ? [] : responseHeaders,
        responseBody: error ? Buffer.alloc(0) : Buffer.concat(chunks),
        responseTruncated: error ? false : truncated,
        responseTime: elapsed(),
        error,
      });
    };

    const timer = setTimeout(
      () => finish({ code: TIMEOUT, message: `${target} did not answer within ${input.timeoutMs} ms.` }),
      input.timeoutMs,
    );
    const requestFn = input.url.protocol === 'https:' ? httpsRequest : httpRequest;
    try {
      req = requestFn(
        {
          protocol: input.url.protocol,
          hostname: input.url.hostname.replace(/^\[|\]$/g, ''),
          port: input.url.port || undefined,
          path: `${input.url.pathname}${input.url.search}`,
          method: input.method,
          headers: input.headers.flat(),
          agent: false,
        },
        (res: IncomingMessage) => {
          status = res.statusCode ?? null;
          responseHeaders = headerPairs(res.rawHeaders);
          res.on('data', (chunk: Buffer) => {
            if (kept < RESPONSE_CAP_BYTES) {
              const part = chunk.subarray(0, RESPONSE_CAP_BYTES - kept);
              chunks.push(part);
              kept += part.length;
              if (part.length < chunk.length) truncated = true;
            } else {
              truncated = true;
            }
          });
          res.on('end', () => finish(null));
          res.on('error', (e) => finish(unreachable(target, e)));
          // A response cut short after its headers ('aborted' then 'close' without 'end').
          res.on('close', () => {
            if (!res.complete)
              finish(unreachable(target, new Error('the connection closed before the response ended')));
          });
        },
      );
    } catch (e) {
      // Node validates header names and values synchronously; the schemas should have caught it first.
      finish({
        code: NOT_SENT,
        message: `The request to ${target} could not be built: ${e instanceof Error ? e.message : String(e)}`,
      });
      return;
    }
    if (input.signal?.aborted) onAbort();
    else input.signal?.addEventListener('abort', onAbort);
    req.on('error', (e) => finish(unreachable(target, e)));
    req.end(input.body);
  });
}

function unreachable(target: string, e: Error): ReplayFailure {
  const code = (e as NodeJS.ErrnoException).code;
  const why: Record<string, string> = {
    ECONNREFUSED: 'the connection was refused (is the server running on that port?)',
    ENOTFOUND: 'the host name could not be resolved',
    EAI_AGAIN: 'the host name could not be resolved (temporary DNS failure)',
    ECONNRESET: 'the connection was reset',
    EHOSTUNREACH: 'the host is unreachable',
    ENETUNREACH: 'the network is unreachable',
  };
  const reason = (code && why[code]) ?? e.message;
  return {
    code: UNREACHABLE,
    message: `${target} could not be reached: ${reason}${code && !why[code] ? ` (${code})` : ''}.`,
  };
}

/** UTF-8 when the bytes are valid UTF-8 (a cut at the cap may split one character: those bytes are dropped), else base64. */
export function encodeBody(body: Buffer, truncated: boolean): { text: string; encoding: BodyEncoding } {
  if (isUtf8(body)) return { text: body.toString('utf8'), encoding: 'utf8' };
  if (truncated) {
    for (let cut = 1; cut <= 3 && cut < body.length; cut++) {
      const head = body.subarray(0, body.length - cut);
      if (isUtf8(head)) return { text: head.toString('utf8'), encoding: 'utf8' };
    }
  }
  return { text: body.toString('base64'), encoding: 'base64' };
}
