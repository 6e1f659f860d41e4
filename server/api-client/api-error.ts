/**
 * An error answer of the API, from its error envelope
 * `{ success: false, error: { code, message, details } }`, or a request that
 * got no answer at all (status 0, code NETWORK_ERROR).
 */
export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

/** The code of an ApiError for a request that never got an answer (refused, reset, DNS, ...). */
export const NETWORK_ERROR = 'NETWORK_ERROR';

/** An error answer as an ApiError; a body that is not the envelope (a proxy's page, say) from the status alone. */
export function errorFromBody(status: number, body: unknown): ApiError {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') {
    const code = typeof body.error.code === 'string' ? body.error.code : `HTTP_${status}`;
    return new ApiError(status, code, body.error.message, body.error.details);
  }
  return new ApiError(status, `HTTP_${status}`, `The engine answered ${status}.`);
}

/** fetch rejects with a TypeError when no answer arrives (WHATWG fetch); its cause says why (Node). */
export function networkError(baseUrl: string, error: TypeError): ApiError {
  const cause = error.cause instanceof Error ? error.cause.message : error.message;
  return new ApiError(0, NETWORK_ERROR, `${baseUrl} does not answer: ${cause}`, undefined, { cause: error });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
