/**
 * The version of the HTTP API's contract (`GET /api/version`'s `api`), raised only
 * when a change breaks clients. A client compares it with its own before it acts,
 * so a CLI of another version says so instead of failing on a changed answer.
 */
export const API_VERSION = '1';
