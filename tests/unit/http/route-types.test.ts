import assert from 'node:assert/strict';
import { z } from 'zod';
import { route, streamRoute } from '../../../server/http/route.ts';
import { test } from '../../helpers/node-test.ts';

// Compile-time conformance: `npm test` typechecks this file, and each
// `@ts-expect-error` below fails the typecheck if the route helper stops
// catching that mistake (an unused expectation is itself an error).
// An extra field (say a secret) on a value built elsewhere is not a compile
// error in TypeScript; closed shapes are held at run time by the conformance
// test (additionalProperties: false) instead.

const Item = z.strictObject({ id: z.string(), count: z.number() });
const Params = z.object({ itemId: z.string() });
const Body = z.object({ name: z.string() });

test('route handlers are typed by their schemas (checked by tsc; this only builds them)', () => {
  const specs = [
    route({
      method: 'get',
      path: '/items/:itemId',
      summary: 's',
      tag: 't',
      params: Params,
      responses: { 200: { description: 'd', data: Item } },
      // The params type comes from the schema: itemId is a string.
      handler: async ({ params }) => ({ data: { id: params.itemId, count: params.itemId.length } }),
    }),
    route({
      method: 'get',
      path: '/wrong-field-type',
      summary: 's',
      tag: 't',
      responses: { 200: { description: 'd', data: Item } },
      // @ts-expect-error count must be a number
      handler: async () => ({ data: { id: 'a', count: '1' } }),
    }),
    route({
      method: 'get',
      path: '/missing-field',
      summary: 's',
      tag: 't',
      responses: { 200: { description: 'd', data: Item } },
      // @ts-expect-error count is missing
      handler: async () => ({ data: { id: 'a' } }),
    }),
    route({
      method: 'post',
      path: '/created',
      summary: 's',
      tag: 't',
      body: Body,
      responses: { 201: { description: 'd', data: Item } },
      // @ts-expect-error a 201-only route must say status: 201
      handler: async ({ body }) => ({ data: { id: body.name, count: 1 } }),
    }),
    route({
      method: 'post',
      path: '/created-ok',
      summary: 's',
      tag: 't',
      body: Body,
      responses: { 201: { description: 'd', data: Item } },
      handler: async ({ body }) => ({ status: 201, data: { id: body.name, count: 1 } }),
    }),
    route({
      method: 'get',
      path: '/body-not-declared',
      summary: 's',
      tag: 't',
      responses: { 200: { description: 'd', data: Item } },
      // @ts-expect-error no body schema: the body is undefined
      handler: async ({ body }) => ({ data: { id: body.name, count: 1 } }),
    }),
    route({
      method: 'get',
      path: '/text-not-declared',
      summary: 's',
      tag: 't',
      responses: { 200: { description: 'd', data: Item } },
      // @ts-expect-error text/plain is not declared for this response
      handler: async () => ({ text: 'hello' }),
    }),
    route({
      method: 'get',
      path: '/text-declared',
      summary: 's',
      tag: 't',
      responses: { 200: { description: 'd', data: Item, text: true } },
      handler: async () => ({ text: 'hello' }),
    }),
    streamRoute({
      method: 'get',
      path: '/stream',
      summary: 's',
      tag: 't',
      stream: { contentType: 'text/event-stream', description: 'd', data: z.string() },
      handler: async ({ res }) => {
        res.end();
      },
    }),
  ];
  assert.deepEqual(
    specs.map((s) => s.kind),
    ['json', 'json', 'json', 'json', 'json', 'json', 'json', 'json', 'stream'],
  );
});
