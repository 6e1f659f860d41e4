import {
  BODILESS_STATUSES,
  INERT_ANSWER_HEADERS,
  isCookieHeader,
  LOG_ID_HEADER,
  type CustomResponse,
} from '../endpoints/custom-response.ts';
import {
  PayloadTooLargeError,
  RequestTimeoutError,
  ServerBusyError,
  ValidationError,
  type AppError,
} from '../errors/app-errors.ts';
import type { SuccessEnvelope } from '../http/envelope-schemas.ts';
import { jsonHeaders, mapError } from '../http/envelope.ts';
import type { VerificationReason } from '../signatures/verification.ts';
import type { AnswerKind } from './answer-kinds.ts';
import type { AnswerRecord, HeaderPairs } from './log-types.ts';
import type { LogVerification } from './logs-schemas.ts';

/*
 * The answers the receiver gives a delivery it stored, in one place for their two
 * uses: the receiver writes them (server/receiver), and the log detail shows them
 * again, rebuilt from the log and its AnswerRecord. One source, so the detail shows
 * what the sender got, byte for byte (tests/integration/sender-answers.test.ts).
 */

/** Why the receiver stopped reading a body and answered with a refusal of its own. */
const REFUSAL_REASONS = [
  'payload_too_large',
  'server_busy',
  'body_timeout',
  'request_timeout',
] as const satisfies readonly VerificationReason[];
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

const isRefusal = (reason: string | null): reason is RefusalReason =>
  (REFUSAL_REASONS as readonly (string | null)[]).includes(reason);

/** The 503's `Retry-After` (docs/API.md "Limits and refusals"). */
const SERVER_BUSY_RETRY_SECONDS = 1;

/** A refusal's answer (status, code, headers), naming the stored log. */
export function refusalError(reason: RefusalReason, message: string, logId: string): AppError {
  const details = { logId, reason };
  switch (reason) {
    case 'payload_too_large':
      return new PayloadTooLargeError(message, details);
    case 'server_busy':
      return new ServerBusyError(message, SERVER_BUSY_RETRY_SECONDS, details);
    case 'body_timeout':
    case 'request_timeout':
      return new RequestTimeoutError(message, details);
  }
}

/** The 400 of a delivery whose signature did not verify. */
export function verificationFailedError(logId: string, v: LogVerification): ValidationError {
  return new ValidationError(
    `Signature verification failed (${v.reason ?? 'invalid'})${v.detail ? `: ${v.detail}` : '.'}`,
    { logId, reason: v.reason },
    'SIGNATURE_VERIFICATION_FAILED',
  );
}

/** The success envelope's `data` for an accepted delivery. */
export const acceptedData = (logId: string): { id: string } => ({ id: logId });

// ---- What the receiver records of each answer (AnswerRecord)

/** `{ success: true, data: { id } }`: nothing to keep but the status. */
export const ACCEPTED: AnswerRecord = { status: 200, message: null, custom: null };
/** The 400 envelope: its sentence comes from the stored verification. */
export const VERIFICATION_FAILED: AnswerRecord = { status: 400, message: null, custom: null };

export function refusedAnswer(reason: RefusalReason, message: string): AnswerRecord {
  // The status is the error class's; the log id it names plays no part in it.
  return { status: refusalError(reason, message, '').status, message, custom: null };
}

export function customAnswer(response: CustomResponse): AnswerRecord {
  return { status: response.status, message: null, custom: response };
}

/**
 * An endpoint's custom answer as written: the engine's inert-content headers, the
 * user's status, headers (in their order and case, repeats kept) and body, then the
 * framing the receiver owns. Validation refuses cookies; one stored before it did is
 * still never sent. The user's own X-Content-Type-Options is dropped (browsers read
 * only the first value, which must stay nosniff); a Content-Security-Policy of theirs
 * is kept, since browsers enforce every policy sent and ours already allows nothing.
 */
export function customAnswerHead(answer: CustomResponse, logId: string): { headers: string[]; body: Buffer } {
  const body = Buffer.from(answer.body, 'utf8');
  const headers: string[] = INERT_ANSWER_HEADERS.flat();
  for (const { name, value } of answer.headers) {
    if (isCookieHeader(name) || name.toLowerCase() === 'x-content-type-options') continue;
    headers.push(name, value);
  }
  // A 204 and a 304 carry no Content-Length (RFC 9110 section 8.6); validation kept their body empty.
  if (answer.status !== 204 && answer.status !== 304) headers.push('Content-Length', String(body.length));
  headers.push(LOG_ID_HEADER, logId);
  return { headers, body };
}

// ---- Reading an answer back (the log detail)

/** What the sender was answered, as the engine wrote it. */
export interface SenderAnswer {
  kind: AnswerKind;
  status: number;
  /** As written, in order and case; not what Node adds for the connection (Date, Connection, Keep-Alive). */
  headers: HeaderPairs;
  body: Buffer;
  /** How long a custom answer waited before it was sent; 0 for the engine's own answers. */
  delayMs: number;
}

/** The answer, or why it is not known. */
export type AnswerReading = { answer: SenderAnswer; unknown: null } | { answer: null; unknown: string };

export interface AnsweredLog {
  id: string;
  method: string;
  status: 'success' | 'failed';
  verification: LogVerification;
}

/**
 * Rebuilds the answer a stored delivery was given. `recorded` is null for a log
 * stored before answers were recorded: its 400 can still be rebuilt, while an
 * accepted delivery may have had the endpoint's custom response and a refusal's
 * sentence named a limit that was not kept, so those are not guessed.
 */
export function readAnswer(log: AnsweredLog, recorded: AnswerRecord | null): AnswerReading {
  const reason = log.verification.reason;
  if (recorded === null) {
    if (log.status === 'failed' && !isRefusal(reason)) return { answer: failedAnswer(log), unknown: null };
    return {
      answer: null,
      unknown:
        log.status === 'success'
          ? "Stored before Hookscope recorded its answers; the answer may have been the endpoint's custom response."
          : "Stored before Hookscope recorded its answers; the refusal's message named a limit that was not kept.",
    };
  }
  if (recorded.custom) {
    const { headers, body } = customAnswerHead(recorded.custom, log.id);
    return {
      answer: {
        kind: 'custom',
        status: recorded.status,
        headers: pairs(headers),
        body: bodyAsSent(log, recorded.status, body),
        delayMs: recorded.custom.delayMs,
      },
      unknown: null,
    };
  }
  if (recorded.message !== null && isRefusal(reason)) {
    return { answer: jsonAnswer(log, 'refused', refusalError(reason, recorded.message, log.id)), unknown: null };
  }
  if (log.status === 'failed') return { answer: failedAnswer(log), unknown: null };
  const accepted: SuccessEnvelope<{ id: string }> = { success: true, data: acceptedData(log.id) };
  return { answer: jsonBody(log, 'accepted', recorded.status, accepted, {}), unknown: null };
}

function failedAnswer(log: AnsweredLog): SenderAnswer {
  return jsonAnswer(log, 'verification_failed', verificationFailedError(log.id, log.verification));
}

/** An error answer as sendError writes it (the receiver reports none of these: no error id). */
function jsonAnswer(log: AnsweredLog, kind: AnswerKind, err: AppError): SenderAnswer {
  const mapped = mapError(err);
  return jsonBody(log, kind, mapped.status, mapped.body, mapped.headers);
}

/** A JSON answer as sendJson writes it. */
function jsonBody(
  log: AnsweredLog,
  kind: AnswerKind,
  status: number,
  body: unknown,
  extra: Record<string, string>,
): SenderAnswer {
  const payload = JSON.stringify(body);
  const headers = Object.entries(jsonHeaders(payload, extra)).map(([n, v]): [string, string] => [n, String(v)]);
  return { kind, status, headers, body: bodyAsSent(log, status, Buffer.from(payload, 'utf8')), delayMs: 0 };
}

/** Node sends no body in an answer to HEAD, nor with a status that carries none. */
function bodyAsSent(log: AnsweredLog, status: number, body: Buffer): Buffer {
  return log.method === 'HEAD' || BODILESS_STATUSES.has(status) ? Buffer.alloc(0) : body;
}

function pairs(flat: string[]): HeaderPairs {
  const out: HeaderPairs = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}
