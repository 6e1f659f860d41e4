import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorEnvelopeSchema, successEnvelope } from './envelope-schemas.ts';
import { toOpenApiPath, type RouteSpec } from './route.ts';

/**
 * The errors an operation can answer because of what it is, not what it does:
 * which of them apply follows from the route's declaration, so the document
 * lists every status a route can answer and none it cannot.
 */
function commonErrors(r: RouteSpec): Record<number, string> {
  const out: Record<number, string> = {};
  if (r.params || r.query || r.body) out[400] = 'Invalid input; the message names the field.';
  if (r.auth !== false) out[401] = 'Missing, invalid or expired bearer token.';
  out[403] = 'Host header not allowed (DNS rebinding protection).';
  if (r.params) out[404] = 'Unknown resource, or one that belongs to another account.';
  if (r.body) {
    out[413] = 'The request body is larger than the API accepts (1 MB).';
    out[415] = 'The request body is not JSON (Content-Type: application/json, UTF-8).';
  }
  out[500] = 'An engine fault; details.errorId finds it in logs/engine.log.';
  out[503] = 'The store cannot accept writes, or the engine is stopping.';
  return out;
}

/** What the generator returns: a plain OpenAPI 3.1 object. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

type ResponseObject = { description: string; content?: Record<string, { schema: z.ZodType }> };

function successResponses(r: RouteSpec): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  if (r.stream) {
    out['200'] = { description: r.stream.description, content: { [r.stream.contentType]: { schema: r.stream.data } } };
    return out;
  }
  for (const [status, res] of Object.entries(r.responses)) {
    const schema = r.raw ? res.data : successEnvelope(res.data);
    out[status] = {
      description: res.description,
      content: {
        'application/json': { schema },
        ...(res.text ? { 'text/plain': { schema: z.string() } } : {}),
      },
    };
  }
  return out;
}

/**
 * Builds the OpenAPI 3.1 document from the same schemas that validate requests and type handlers.
 * `schemas` are components no route body carries (the event map's `EngineEvent`);
 * each names itself with `.meta({ id })`.
 */
export function buildOpenApiDocument(routes: RouteSpec[], version: string, schemas: z.ZodType[] = []): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  for (const r of routes) {
    const responses = successResponses(r);
    const errors = { ...commonErrors(r), ...r.errors };
    for (const [status, description] of Object.entries(errors)) {
      if (description === undefined) continue;
      responses[status] = { description, content: { 'application/json': { schema: ErrorEnvelopeSchema } } };
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
