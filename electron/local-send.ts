import { HEADER_NAME } from '../server/http/schemas.ts';
import type { SendInput, SendResult } from '../server/replay/http-sender.ts';
import { MAX_TIMEOUT_MS, REPLAY_METHODS } from '../server/replay/replay-limits.ts';
import { DEFAULT_TIMEOUT_MS } from '../server/replay/replay-service.ts';
import { FRAMING_HEADERS } from '../server/support/headers.ts';
import type { Checked } from './engine-choice.ts';
import type { LocalSendResult } from './local-send-types.ts';
import { localTarget } from './local-target.ts';

export type { LocalRequest, LocalSendResult } from './local-send-types.ts';

/** The target's answer (or why none came), or one sentence saying why the desktop app sent nothing. */
export type LocalSendAnswer = { ok: true; result: LocalSendResult } | { ok: false; error: string };

/** As much as the engine's API takes in one request body (express.json's 1mb): a replay's body is no bigger. */
export const MAX_LOCAL_BODY_BYTES = 1024 * 1024;
// Node reads at most 2000 headers of a message (maxHeadersCount): no delivery the engine stored has more.
const MAX_HEADERS = 2000;
const MAX_HEADER_VALUE = 8192;
// No CR, LF or NUL: they would split or end the header line.
const INVALID_VALUE = /[\r\n\0]/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const isPair = (p: unknown): p is [string, string] =>
  Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string';

/** Whether a header may be sent as given, or why not. Framing is the sender's: only a Content-Length that is true. */
function headerRefusal([name, value]: [string, string], url: URL, bodyBytes: number): string | null {
  const lower = name.toLowerCase();
  if (!HEADER_NAME.test(name)) return `"${name}" is not a valid header name.`;
  if (INVALID_VALUE.test(value) || value.length > MAX_HEADER_VALUE)
    return `The header ${name} must be at most ${MAX_HEADER_VALUE} characters without line breaks.`;
  if (lower === 'content-length') {
    // A length other than the body's would make the target read the rest as another request.
    return value === String(bodyBytes) ? null : `Content-Length must be the body's size (${bodyBytes} bytes).`;
  }
  if (FRAMING_HEADERS.has(lower)) return `The header ${name} is the connection's; the desktop app does not send it.`;
  // A local proxy routing by Host would otherwise carry the request on to another machine.
  if (lower === 'host' && value.toLowerCase() !== url.host)
    return `The Host header must name the target (${url.host}), not ${value}.`;
  return null;
}

/**
 * The page's request checked field by field before anything is sent: a target
 * on this computer (local-target.ts), a replay method, header pairs of strings
 * that Node would not refuse or that would not change the framing, a body in its
 * encoding of at most MAX_LOCAL_BODY_BYTES, a bounded wait.
 */
export function parseLocalRequest(input: unknown): Checked<SendInput> {
  const fail = (error: string): Checked<SendInput> => ({ ok: false, error });
  if (typeof input !== 'object' || input === null)
    return fail('Give the request to send (method, url, headers, body).');
  const r = input as Record<string, unknown>;
  if (typeof r.url !== 'string') return fail('url must be the target URL, a string.');
  const target = localTarget(r.url);
  if (!target.ok) return target;
  const url = target.value;
  if (typeof r.method !== 'string' || !(REPLAY_METHODS as readonly string[]).includes(r.method))
    return fail(`method must be one of: ${REPLAY_METHODS.join(', ')}.`);
  if (r.bodyEncoding !== 'utf8' && r.bodyEncoding !== 'base64') return fail('bodyEncoding must be utf8 or base64.');
  if (typeof r.body !== 'string') return fail('body must be a string.');
  if (r.bodyEncoding === 'base64' && !BASE64.test(r.body)) return fail('body is not valid base64.');
  const body = Buffer.from(r.body, r.bodyEncoding);
  if (body.length > MAX_LOCAL_BODY_BYTES) return fail(`The body must be at most ${MAX_LOCAL_BODY_BYTES} bytes.`);
  if (!Array.isArray(r.headers) || !r.headers.every(isPair))
    return fail('headers must be a list of [name, value] pairs of strings.');
  if (r.headers.length > MAX_HEADERS) return fail(`At most ${MAX_HEADERS} headers are sent.`);
  for (const pair of r.headers) {
    const refusal = headerRefusal(pair, url, body.length);
    if (refusal) return fail(refusal);
  }
  const timeoutMs = r.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)
    return fail(`timeoutMs must be a whole number of milliseconds between 1 and ${MAX_TIMEOUT_MS}.`);
  return { ok: true, value: { url, method: r.method, headers: r.headers.map(([n, v]) => [n, v]), body, timeoutMs } };
}

/**
 * Why the desktop app would not send a request the team server built for a forward from this computer
 * (electron/forward-run.ts), or null: a target on this computer, and headers that would not change the
 * framing or name another host, as for a replay; the body is a delivery's, as large as the receiver took.
 */
export function builtRequestRefusal(input: SendInput): string | null {
  const target = localTarget(input.url.href);
  if (!target.ok) return target.error;
  if (input.headers.length > MAX_HEADERS) return `At most ${MAX_HEADERS} headers are sent.`;
  for (const pair of input.headers) {
    const refusal = headerRefusal(pair, target.value, input.body.length);
    if (refusal) return refusal;
  }
  return null;
}

/** The sender's result for the page: the body as base64 (the cap is the sender's). */
export function localSendResult(result: SendResult): LocalSendResult {
  return {
    status: result.status,
    responseHeaders: result.responseHeaders.map(([n, v]) => [n, v]),
    responseBody: result.responseBody.toString('base64'),
    responseTruncated: result.responseTruncated,
    responseTime: result.responseTime,
    error: result.error ? { code: result.error.code, message: result.error.message } : null,
  };
}

/** `sendFromThisComputer`: the request checked, sent with `send` (server/replay/http-sender.ts), its result. */
export async function sendFromThisComputer(
  input: unknown,
  send: (input: SendInput) => Promise<SendResult>,
): Promise<LocalSendAnswer> {
  const request = parseLocalRequest(input);
  if (!request.ok) return request;
  return { ok: true, result: localSendResult(await send(request.value)) };
}
