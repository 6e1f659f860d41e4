import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AccountContext } from '../auth/account-context.ts';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A success answer of an operation: its description and the schema of what it sends. */
export interface SuccessResponse<S extends z.ZodType = z.ZodType> {
  description: string;
  /** Schema of `data` in the success envelope (of the whole body for `raw` routes and streams). */
  data: S;
  /** The operation can also answer `text/plain`, not enveloped (a handler result with `text`). */
  text?: boolean;
}

/** Success answers by status. Errors are documented apart (`errors`), all in the error envelope. */
export type SuccessResponses = { 200: SuccessResponse } | { 201: SuccessResponse };

type Data<R extends SuccessResponse> = z.input<R['data']>;

/**
 * What a handler may return, inferred from the route's declared responses: the
 * data of a declared success status (200 may be left implicit), or text where the
 * response says `text: true`. A handler returning another shape does not compile.
 */
export type HandlerResult<R extends SuccessResponses> = {
  [K in keyof R & number]: R[K] extends SuccessResponse
    ? | (K extends 200 ? { status?: 200; data: Data<R[K]> } : { status: K; data: Data<R[K]> })
      | (R[K]['text'] extends true ? { status?: K; text: string } : never)
    : never;
}[keyof R & number];

type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
type ParsedBody<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The authenticated account; routes declared `auth: false` must not read it. */
  account: AccountContext;
  req: Request;
  res: Response;
}

interface RouteBase<P, Q, B> {
  method: HttpMethod;
  /** Express-style path, e.g. `/api/endpoints/:endpointId`. */
  path: string;
  summary: string;
  tag: string;
  auth?: boolean;
  /**
   * Whether a call makes the engine act: change something, send a request, call
   * the LLM. A call signed in by the session cookie (the renderer) must then carry
   * `x-hookscope-request`, which a page of another origin cannot send (see
   * server/auth/authenticator.ts). Every route acts unless it declares
   * `acts: false`, so a new route that forgets this is guarded rather than open;
   * only pure reads declare it (a GET that sends a request, such as diagnose, does not).
   */
  acts?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Set when the body is optional (e.g. regenerate-secret may carry its own secret). */
  bodyOptional?: boolean;
  /**
   * Error statuses this operation answers beyond the ones every route of its kind
   * can (see `commonErrors` in openapi.ts), with what they mean here.
   */
  errors?: Partial<Record<number, string>>;
}

export interface JsonRouteDef<P, Q, B, R extends SuccessResponses> extends RouteBase<P, Q, B> {
  responses: R;
  /** Send `data` as the whole body instead of inside the envelope (the OpenAPI document). */
  raw?: boolean;
  handler: (ctx: HandlerContext<Parsed<P>, Parsed<Q>, ParsedBody<B>>) => Promise<HandlerResult<R>>;
}

export interface StreamRouteDef<P, Q, B> extends RouteBase<P, Q, B> {
  /** The stream's content type and what it carries. */
  stream: { contentType: string } & SuccessResponse;
  /**
   * Writes the response itself (a long-lived stream such as SSE). Auth and
   * validation run first, so their errors are ordinary enveloped responses.
   */
  handler: (ctx: HandlerContext<Parsed<P>, Parsed<Q>, ParsedBody<B>>) => Promise<void>;
}

/** The erased form the app and the document builder work with. */
export interface RouteSpec extends RouteBase<z.ZodType, z.ZodType, z.ZodType> {
  kind: 'json' | 'stream';
  responses: Partial<Record<200 | 201, SuccessResponse>>;
  stream?: { contentType: string } & SuccessResponse;
  raw?: boolean;
  handler: (ctx: HandlerContext<unknown, unknown, unknown>) => Promise<RouteResult | undefined>;
}

/** A handler's result once its types are erased. */
export interface RouteResult {
  status?: number;
  data?: unknown;
  text?: string;
}

/**
 * Declares one API operation: its schemas validate the request, type the handler
 * and feed the OpenAPI document, so the three cannot drift apart.
 */
export function route<
  R extends SuccessResponses,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(def: JsonRouteDef<P, Q, B, R>): RouteSpec {
  return { ...def, kind: 'json' } as unknown as RouteSpec;
}

/** Declares an operation whose handler writes a stream itself (`GET /api/events`). */
export function streamRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(def: StreamRouteDef<P, Q, B>): RouteSpec {
  return { ...def, kind: 'stream', responses: {} } as unknown as RouteSpec;
}

/** Whether a cookie-signed call of this route needs `x-hookscope-request` (RouteBase.acts). */
export const routeActs = (spec: Pick<RouteSpec, 'acts'>): boolean => spec.acts !== false;

/** `/api/endpoints/:endpointId` -> `/api/endpoints/{endpointId}` */
export const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
