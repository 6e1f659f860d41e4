// Limits of a replay request, apart from its zod schema so the CLI can name
// them in --help without loading zod.
export const REPLAY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const MAX_TIMEOUT_MS = 120_000;
/**
 * An edited replay's body is kept up to this many bytes, like a response
 * (http-sender's RESPONSE_CAP_BYTES): history holds up to 10,000 attempts per
 * account in the in-memory database, and an edited body may be up to the API's
 * 1 MB, so whole bodies could hold 10 GB. The whole size is kept beside it.
 */
export const EDITED_BODY_CAP_BYTES = 64 * 1024;
/**
 * The longest response time a client may report for a request it sent itself: its
 * timer stops the request at MAX_TIMEOUT_MS at the latest, and the margin covers a
 * late timer on a busy machine.
 */
export const MAX_REPORTED_RESPONSE_TIME_MS = MAX_TIMEOUT_MS + 10_000;
