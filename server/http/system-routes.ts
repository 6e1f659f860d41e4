import { z } from 'zod';
import type { VersionInfo } from '../support/version.ts';
import { route, type RouteSpec } from './route.ts';

const VersionSchema = z.object({ name: z.string(), version: z.string(), node: z.string(), api: z.string() });

/** Unauthenticated: what the CLI asks before it has a token, and the contract itself. */
export function systemRoutes(version: VersionInfo, openapi: () => object): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/api/version',
      summary: 'Engine version (no token needed)',
      tag: 'System',
      auth: false,
      responses: [{ status: 200, description: 'Version information', data: VersionSchema }],
      handler: async () => ({ data: { ...version, api: '1' } }),
    }),
    route({
      method: 'get',
      path: '/api/openapi.json',
      summary: 'This OpenAPI document (no token needed, not enveloped)',
      tag: 'System',
      auth: false,
      raw: true,
      responses: [{ status: 200, description: 'OpenAPI 3.1 document' }],
      handler: async () => ({ data: openapi() }),
    }),
  ];
}
