import { STATUS_CODES, type ServerResponse } from 'node:http';
import { AppError } from '../errors/app-errors.ts';
import type { ReportFault } from '../support/logger-faults.ts';

import type { ErrorEnvelope, SuccessEnvelope } from './envelope-schemas.ts';

export interface MappedError {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
}

/** Extra response headers; they override the JSON defaults of the same name. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * The one place that turns any thrown value into a status, headers and the error envelope
 * (an AppError brings its own headers: `Allow`, `Retry-After`).
 * Unknown errors become a generic 500 whose message reveals nothing internal.
 * Engine faults (see isEngineFault) go to `report`, which logs them and returns
 * an error id; the envelope carries it as `error.details.errorId` so the client's
 * 500 and the log line (with the stack) can be matched.
 */
export function mapError(err: unknown, report?: ReportFault): MappedError {
  const errorId = report && isEngineFault(err) ? report(err) : undefined;
  if (err instanceof AppError) {
    const error: ErrorEnvelope['error'] = { code: err.code, message: err.message };
    if (err.details !== undefined) error.details = err.details;
    if (errorId !== undefined) error.details = { ...(isRecord(err.details) ? err.details : {}), errorId };
    return { status: err.status, body: { success: false, error }, headers: { ...err.headers } };
  }
  const bodyParser = mapBodyParserError(err);
  if (bodyParser) return bodyParser;
  const error: ErrorEnvelope['error'] =
    errorId === undefined
      ? { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' }
      : {
          code: 'INTERNAL_ERROR',
          message: `An unexpected error occurred; the engine logged it as ${errorId} (logs/engine.log in its data directory).`,
          details: { errorId },
        };
  return { status: 500, body: { success: false, error }, headers: {} };
}

// express.json() (body-parser) throws errors tagged with `type`; these are client mistakes, never 500s.
function mapBodyParserError(err: unknown): MappedError | null {
  if (!isRecord(err) || typeof err.type !== 'string') return null;
  const fail = (status: number, code: string, message: string): MappedError => ({
    status,
    body: { success: false, error: { code, message } },
    headers: {},
  });
  switch (err.type) {
    case 'entity.parse.failed':
      return fail(400, 'INVALID_JSON', 'The request body is not valid JSON, or not a JSON object or array.');
    case 'entity.too.large':
      return fail(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than the API accepts (1 MB).');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return fail(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 encoded JSON.');
    case 'request.aborted':
      return fail(400, 'REQUEST_ABORTED', 'The request was aborted before its body arrived.');
    default:
      return null;
  }
}

/**
 * Whether the engine should log this failure: anything unexpected, and a store
 * that cannot write. A replay target that is down (502/504) is the user's news,
 * answered to them, not an engine fault; so is a body the JSON parser refused.
 */
export function isEngineFault(err: unknown): boolean {
  if (err instanceof AppError) return err.status === 500 || err.status === 503;
  // A body the client got wrong (bad JSON, too large) is its news, not the engine's.
  return mapBodyParserError(err) === null;
}

/**
 * The headers of every JSON answer: one content type, an exact length, and
 * `no-store`, since every answer is about state that changes (a delivery, a
 * share link that expires) and may name private data. `extra` comes last, so a
 * caller's header of the same name wins. Exported for the log detail, which
 * shows a sender the answer it was given (server/logs/sender-answers.ts).
 */
export function jsonHeaders(payload: string, extra: ResponseHeaders): Record<string, string | number> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...extra,
  };
}

/**
 * Writes any JSON answer. Node leaves the body out of an answer to HEAD, with
 * the length of the one GET would have received.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: ResponseHeaders = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, jsonHeaders(payload, headers));
  res.end(payload);
}

/** The success envelope, `{ success: true, data }`. */
export function sendData<T>(
  res: ServerResponse,
  data: T,
  opts: { status?: number; headers?: ResponseHeaders } = {},
): void {
  const body: SuccessEnvelope<T> = { success: true, data };
  sendJson(res, opts.status ?? 200, body, opts.headers);
}

/** A text answer that is not enveloped (an operation that declares `text/plain`, e.g. explain?format=text). */
export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export interface SendErrorOptions {
  /** Logs an engine fault and returns its error id (see mapError). */
  report?: ReportFault;
  /** Headers of the answer itself (a share page's security headers); the error's own come after them. */
  headers?: ResponseHeaders;
}

/**
 * The error envelope for anything thrown. When the answer has already started
 * (a stream that failed midway) nothing more can be said: a fault is still
 * reported, and the connection closes so the client sees the answer cut short.
 */
export function sendError(res: ServerResponse, err: unknown, opts: SendErrorOptions = {}): void {
  if (res.headersSent) {
    if (opts.report && isEngineFault(err)) opts.report(err);
    res.destroy();
    return;
  }
  const mapped = mapError(err, opts.report);
  sendJson(res, mapped.status, mapped.body, { ...opts.headers, ...mapped.headers });
}

/**
 * The bytes of a complete error answer, for a socket that has no ServerResponse
 * (Node refused the request before any handler ran: malformed, headers too large
 * or too slow). The connection closes after it: what follows on it cannot be trusted.
 */
export function rawErrorResponse(err: AppError): string {
  const mapped = mapError(err);
  const payload = JSON.stringify(mapped.body);
  const headers = jsonHeaders(payload, { ...mapped.headers, connection: 'close' });
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${mapped.status} ${STATUS_CODES[mapped.status] ?? ''}\r\n${lines.join('')}\r\n${payload}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
