import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AccountContext } from '../auth/account-context.ts';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteResponse {
  status: number;
  description: string;
  /** Schema of `data` in the success envelope (error responses use the shared error schema). */
  data?: z.ZodType;
  /** A non-JSON success body (e.g. `text/event-stream`); `data` then describes the body itself. */
  contentType?: string;
  /** The operation can also answer `text/plain` (a handler result with `contentType`). */
  text?: boolean;
}

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The authenticated account; routes declared `auth: false` must not read it. */
  account: AccountContext;
  req: Request;
  res: Response;
}

export interface HandlerResult {
  status?: number;
  data: unknown;
  /**
   * Set for a non-JSON answer (e.g. `text/plain; charset=utf-8`): `data` is a
   * string sent as is, without the envelope. Declare it with `text: true` on the response.
   */
  contentType?: string;
}

/**
 * One API operation: its schemas (which both validate the request and feed the
 * OpenAPI document) and a thin handler that calls one service method.
 */
export interface RouteSpec<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  /** Express-style path, e.g. `/api/endpoints/:endpointId`. */
  path: string;
  summary: string;
  tag: string;
  auth?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Set when the body is optional (e.g. regenerate-secret may carry its own secret). */
  bodyOptional?: boolean;
  responses: RouteResponse[];
  /** Send `data` as the whole body instead of inside the envelope (the OpenAPI document). */
  raw?: boolean;
  /**
   * The handler writes the response itself (a long-lived stream such as SSE);
   * its result is ignored. Auth and validation still run first, so their
   * errors are ordinary enveloped responses.
   */
  stream?: boolean;
  handler: (ctx: HandlerContext<P, Q, B>) => Promise<HandlerResult>;
}

/** Helper that keeps each route's generic types tied to its schemas. */
export function route<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  spec: RouteSpec<P, Q, B>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** `/api/endpoints/:endpointId` -> `/api/endpoints/{endpointId}` */
export const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
