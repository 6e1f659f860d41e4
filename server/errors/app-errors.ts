/**
 * The engine's typed errors. Services throw these; exactly one place
 * (server/http/error-mapper.ts) turns them into a status and the envelope.
 * `code` is stable and meant for programs; `message` is a sentence for people.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
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

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', message);
  }
}

/** A sender over a rate limit; `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number, code = 'RATE_LIMITED') {
    super(429, code, message, { retryAfterSeconds });
  }
}

/** The store cannot accept writes (disk full, worker gone). Senders see 503. */
export class StoreUnavailableError extends AppError {
  constructor(message: string) {
    super(503, 'STORE_UNAVAILABLE', message);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(
    message: string,
    readonly allow: string,
  ) {
    super(405, 'METHOD_NOT_ALLOWED', message, { allow });
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
