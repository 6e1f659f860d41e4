import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { toOpenApiPath, type RouteSpec } from './route.ts';

const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  })
  .meta({ id: 'ErrorEnvelope' });

const COMMON_ERRORS: Record<number, string> = {
  400: 'Invalid input; the message names the field.',
  401: 'Missing, invalid or expired bearer token.',
  403: 'Host header not allowed (DNS rebinding protection).',
  404: 'Unknown resource, or one that belongs to another account.',
};

/**
 * Builds the OpenAPI 3.1 document from the same schemas that validate requests.
 * `schemas` are components no route body carries (the event map's `EngineEvent`);
 * each names itself with `.meta({ id })`.
 */
export function buildOpenApiDocument(routes: RouteSpec[], version: string, schemas: z.ZodType[] = []): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  for (const r of routes) {
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {};
    for (const res of r.responses) {
      if (res.contentType) {
        responses[String(res.status)] = {
          description: res.description,
          content: { [res.contentType]: { schema: res.data ?? z.string() } },
        };
        continue;
      }
      const schema =
        res.status < 400 ? z.object({ success: z.literal(true), data: res.data ?? z.unknown() }) : ErrorEnvelope;
      responses[String(res.status)] = {
        description: res.description,
        content: { 'application/json': { schema }, ...(res.text ? { 'text/plain': { schema: z.string() } } : {}) },
      };
    }
    for (const [status, description] of Object.entries(COMMON_ERRORS)) {
      if (status === '401' && r.auth === false) continue;
      responses[status] ??= { description, content: { 'application/json': { schema: ErrorEnvelope } } };
    }
    registry.registerPath({
      method: r.method,
      path: toOpenApiPath(r.path),
      summary: r.summary,
      tags: [r.tag],
      security: r.auth === false ? [] : [{ bearerAuth: [] }],
      request: {
        ...(r.params ? { params: r.params as z.ZodObject } : {}),
        ...(r.query ? { query: r.query as z.ZodObject } : {}),
        ...(r.body ? { body: { required: !r.bodyOptional, content: { 'application/json': { schema: r.body } } } } : {}),
      },
      responses,
    });
  }
  const definitions = [...registry.definitions, ...schemas.map((schema) => ({ type: 'schema' as const, schema }))];
  return new OpenApiGeneratorV31(definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Hookscope API',
      version,
      description:
        'Private API of a Hookscope engine (127.0.0.1 only). Every response uses the envelope ' +
        '{ success, data } or { success: false, error: { code, message, details } }.',
    },
    servers: [{ url: '/' }],
  });
}
