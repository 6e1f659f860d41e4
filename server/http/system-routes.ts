import { z } from 'zod';
import { API_VERSION } from '../support/api-version.ts';
import type { VersionInfo } from '../support/version.ts';
import { route, type RouteSpec } from './route.ts';

const VersionSchema = z
  .strictObject({
    name: z.string(),
    version: z.string(),
    node: z.string(),
    api: z.string(),
    events: z.string().meta({
      description:
        'What the ids of /api/events are numbered in. Another value than before means they were numbered anew (an embedded engine restarted): resume from Last-Event-ID 0, not from the last id received.',
    }),
  })
  .meta({ id: 'Version' });

/**
 * The document is not enveloped: it is the OpenAPI object itself. Its shape is
 * OpenAPI's, so only what identifies it and its paths are spelt out, in open
 * objects (z.object: no `additionalProperties` in the document, so `components`,
 * `servers` and `info.description` are allowed); a strict object or the success
 * envelope would declare a schema the document does not satisfy.
 */
const OpenApiDocumentSchema = z
  .object({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.object({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: 'The OpenAPI 3.1 document itself, not inside the { success, data } envelope.' });

/** Unauthenticated: what the CLI asks before it has a token, and the contract itself. */
export function systemRoutes(
  version: VersionInfo,
  eventIdSpace: () => string,
  openapi: () => z.output<typeof OpenApiDocumentSchema>,
): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/api/version',
      summary: 'Engine version (no token needed)',
      tag: 'System',
      auth: false,
      responses: { 200: { description: 'Version information', data: VersionSchema } },
      handler: async () => ({ data: { ...version, api: API_VERSION, events: eventIdSpace() } }),
    }),
    route({
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This OpenAPI document (no token needed, not enveloped)',
      tag: 'System',
      auth: false,
      raw: true,
      responses: { 200: { description: 'OpenAPI 3.1 document (not enveloped)', data: OpenApiDocumentSchema } },
      handler: async () => ({ data: openapi() }),
    }),
  ];
}
