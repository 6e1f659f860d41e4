/** Response headers an error needs (lower-case names), e.g. `allow` on a 405, `retry-after` on a 429. */
export type ErrorHeaders = Readonly<Record<string, string>>;

/**
 * The engine's typed errors. Services throw these; exactly one place
 * (server/http/envelope.ts) turns them into a status, headers and the envelope.
 * `code` is stable and meant for programs; `message` is a sentence for people.
 * `headers` are set where the error is thrown, since only that code knows them
 * (which methods a resource allows, when a sender may retry).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: ErrorHeaders = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown, code = 'VALIDATION_ERROR') {
    super(400, code, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'A valid bearer token is required.', code = 'UNAUTHORIZED') {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, code = 'NOT_FOUND') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT', details?: unknown) {
    super(409, code, message, details);
  }
}

export class GoneError extends AppError {
  constructor(message: string, code = 'GONE') {
    super(410, code, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string, details?: unknown) {
    super(413, 'PAYLOAD_TOO_LARGE', message, details);
  }
}

/** A sender too slow with its request; the connection closes after the answer. */
export class RequestTimeoutError extends AppError {
  constructor(message: string, details?: unknown) {
    super(408, 'REQUEST_TIMEOUT', message, details, { connection: 'close' });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', message);
  }
}

/**
 * A sender over a rate limit: `Retry-After` in seconds, and the same number as
 * `details.retryAfterSeconds` for programs that read the body (docs/API.md).
 */
export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number, code = 'RATE_LIMITED') {
    super(429, code, message, { retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
  }
}

/** The receiver is holding as many body bytes as it allows; the sender may retry after `retryAfterSeconds`. */
export class ServerBusyError extends AppError {
  constructor(message: string, retryAfterSeconds: number, details?: unknown) {
    super(503, 'SERVER_BUSY', message, details, { 'retry-after': String(retryAfterSeconds) });
  }
}

/** The store cannot accept writes (disk full, worker gone). Senders see 503. */
export class StoreUnavailableError extends AppError {
  constructor(message: string) {
    super(503, 'STORE_UNAVAILABLE', message);
  }
}

/** `allow` lists the methods the resource answers, e.g. `GET, HEAD`: the `Allow` header and `details.allow`. */
export class MethodNotAllowedError extends AppError {
  constructor(message: string, allow: string) {
    super(405, 'METHOD_NOT_ALLOWED', message, { allow }, { allow });
  }
}

/** An upstream we called (a replay target) could not be reached: DNS, refused, reset. */
export class BadGatewayError extends AppError {
  constructor(message: string, details?: unknown, code = 'BAD_GATEWAY') {
    super(502, code, message, details);
  }
}

/** An upstream we called (a replay target) did not answer in time. */
export class GatewayTimeoutError extends AppError {
  constructor(message: string, details?: unknown, code = 'GATEWAY_TIMEOUT') {
    super(504, code, message, details);
  }
}
