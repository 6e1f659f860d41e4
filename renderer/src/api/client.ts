import { createApiClient, type ApiClient, type ApiSchemas } from '../../../server/api-client/api-client.ts';
import type { paths } from '../../../server/api-client/api-paths.generated.ts';

export type { ApiClient, ApiSchemas };
export { ApiError } from '../../../server/api-client/api-error.ts';

/**
 * The header a page of another origin cannot send (server/auth/session-cookie.ts):
 * the engine wants it on every cookie-signed call of a route that acts, GETs
 * included (diagnose, explain, the event stream), so every call carries it.
 */
const REQUEST_HEADER = 'x-hookscope-request';

/**
 * The renderer's client: the shared one, at the page's own origin (the engine
 * serves the UI at its API address), signed in by the session cookie the browser
 * sends by itself. Components never call fetch: they go through the stores, which use this.
 */
export function browserClient(origin: string = window.location.origin): ApiClient {
  return createApiClient({ baseUrl: origin, headers: { [REQUEST_HEADER]: '1' } });
}

export type Endpoint = ApiSchemas['Endpoint'];
export type LogSummary = ApiSchemas['LogSummary'];
export type LogDetail = ApiSchemas['LogDetail'];
/** A stored delivery's outcome (the list's status filter). */
export type LogStatus = LogSummary['status'];
/** What `GET /api/webhooks/logs/{logId}/export` makes of a delivery. */
export type ExportFormat = ApiSchemas['Export']['format'];
export type TunnelStatus = ApiSchemas['TunnelStatus'];

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
