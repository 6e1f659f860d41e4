import type { ServerResponse } from 'node:http';
import { AppError } from '../errors/app-errors.ts';
import type { ReportFault } from '../support/logger-faults.ts';

export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; details?: unknown };
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export interface MappedError {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
}

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

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

export function sendError(res: ServerResponse, err: unknown, report?: ReportFault): MappedError {
  const mapped = mapError(err, report);
  sendJson(res, mapped.status, mapped.body, mapped.headers);
  return mapped;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
