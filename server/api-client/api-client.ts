import createClient, { type ClientPathsWithMethod, type MaybeOptionalInit } from 'openapi-fetch';
import { ApiError, errorFromBody, isRecord, networkError } from './api-error.ts';
import type { components, paths } from './api-paths.generated.ts';

/**
 * The one way the CLI and the renderer call the engine's API: typed by the paths
 * generated from the OpenAPI document (api-paths.generated.ts), built on
 * openapi-fetch, runnable in Node and in a browser (web APIs only: fetch,
 * Request, Headers, ReadableStream).
 *
 * Each call answers the `data` of the success envelope, typed by its path,
 * method and status; an error envelope, a body that is not the envelope, or no
 * answer at all is thrown as an ApiError.
 */
export interface ApiClient {
  /** The API's address, without a trailing slash. */
  readonly baseUrl: string;
  /**
   * Identifies one engine run, when the caller knows it (the CLI reads it from
   * runtime.json): event ids restart with each run (see event-follower.ts).
   */
  readonly instance: string | undefined;
  get: EnvelopeCall<'get'>;
  post: EnvelopeCall<'post'>;
  patch: EnvelopeCall<'patch'>;
  put: EnvelopeCall<'put'>;
  delete: EnvelopeCall<'delete'>;
  /** A GET whose success answer is plain text (e.g. `explain?format=text`); errors still arrive as the envelope. */
  getText<P extends TextPath>(path: P, ...init: InitArgs<P, 'get'>): Promise<string>;
  /** Opens `GET /api/events` (fetch, so the Authorization header is sent); the caller reads the stream. */
  openEvents(lastEventId: string | undefined, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

export interface ApiClientOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; omitted where something else authenticates (a cookie, Electron's main process). */
  token?: string;
  /** Headers for every request (e.g. the header a cross-site page cannot send). */
  headers?: Record<string, string>;
  /**
   * Replaces the global fetch. A TypeError it throws counts as "no answer"
   * (ApiError NETWORK_ERROR), like fetch's own; any other error passes through as is.
   */
  fetch?: (request: Request) => Promise<Response>;
  instance?: string;
}

/** The schemas of the API's components (Endpoint, LogSummary, ...). */
export type ApiSchemas = components['schemas'];

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type RawClient = ReturnType<typeof createClient<paths, 'application/json'>>;
type PathOf<M extends Method> = ClientPathsWithMethod<RawClient, M>;
type Init<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The options argument is required exactly when the path has required parameters or a required body. */
type InitArgs<P extends keyof paths, M extends Method> =
  undefined extends Init<P, M> ? [init?: Init<P, M>] : [init: Init<P, M>];
type Operation<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer Op> ? Op : never;
type SuccessStatus = 200 | 201 | 202 | 204;
/**
 * The JSON body of the operation's success answers. Written here rather than
 * taken from openapi-fetch's FetchResponse, whose Readable<> turns tuples such
 * as rawHeaders' `[string, string][]` into `string[][]`.
 */
type SuccessBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? {
        [S in keyof R & SuccessStatus]: R[S] extends { content: { 'application/json': infer B } } ? B : never;
      }[keyof R & SuccessStatus]
    : never;
/** The `data` of a success envelope. */
export type Unwrapped<T> = T extends { success: true; data?: infer D } ? D : never;
export type ApiData<P extends keyof paths, M extends Method> = Unwrapped<SuccessBody<P, M>>;
type EnvelopeCall<M extends Method> = <P extends PathOf<M>>(path: P, ...init: InitArgs<P, M>) => Promise<ApiData<P, M>>;
/** GET paths whose success answer may be text/plain. */
type TextPath = {
  [P in PathOf<'get'>]: Operation<P, 'get'> extends { responses: { 200: { content: { 'text/plain': string } } } }
    ? P
    : never;
}[PathOf<'get'>];

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const raw = createClient<paths>({
    baseUrl,
    headers,
    // Looked up per call, so a fetch replaced after creation (tests, polyfills) is the one used.
    fetch: async (request) => {
      try {
        return await (options.fetch ?? globalThis.fetch)(request);
      } catch (e) {
        if (e instanceof TypeError) throw networkError(baseUrl, e);
        throw e; // an abort, or the custom fetch's own error
      }
    },
  });
  // The typed surface is the ApiClient interface above; underneath, every call
  // is one untyped request whose body this module parses itself (text first,
  // so a body that is not JSON is reported, not thrown as a SyntaxError).
  const request = raw.request as unknown as (
    method: string,
    path: string,
    init: Record<string, unknown> | undefined,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  const call = async (method: Method, path: string, init?: object): Promise<unknown> => {
    const { data, error, response } = await request(method, path, {
      ...init,
      parseAs: 'text',
      headers: { accept: 'application/json', ...(init as { headers?: Record<string, string> })?.headers },
    });
    if (!response.ok) throw errorFromBody(response.status, error);
    let body: unknown;
    try {
      body = typeof data === 'string' && data !== '' ? JSON.parse(data) : undefined;
    } catch {
      throw new ApiError(
        response.status,
        `HTTP_${response.status}`,
        `The engine answered ${response.status} with a body that is not JSON.`,
      );
    }
    if (isRecord(body) && body.success === true && 'data' in body) return body.data;
    throw new ApiError(
      response.status,
      'UNEXPECTED_RESPONSE',
      `The engine answered ${response.status} without the success envelope.`,
    );
  };

  const envelopeCall =
    <M extends Method>(method: M): EnvelopeCall<M> =>
    (path, ...init) =>
      call(method, path, init[0]) as never;

  return {
    baseUrl,
    instance: options.instance,
    get: envelopeCall('get'),
    post: envelopeCall('post'),
    patch: envelopeCall('patch'),
    put: envelopeCall('put'),
    delete: envelopeCall('delete'),
    async getText(path, ...init) {
      const { data, error, response } = await request('get', path, {
        ...init[0],
        parseAs: 'text',
        headers: { accept: 'text/plain, application/json' },
      });
      if (!response.ok) throw errorFromBody(response.status, error);
      return typeof data === 'string' ? data : '';
    },
    async openEvents(lastEventId, signal) {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      const events: PathOf<'get'> = '/api/events';
      const { data, error, response } = await request('get', events, { parseAs: 'stream', headers, signal });
      if (!response.ok) throw errorFromBody(response.status, error);
      if (!(data instanceof ReadableStream)) {
        throw new ApiError(
          response.status,
          'UNEXPECTED_RESPONSE',
          `The engine answered ${response.status} without a body.`,
        );
      }
      return data as ReadableStream<Uint8Array>;
    },
  };
}
