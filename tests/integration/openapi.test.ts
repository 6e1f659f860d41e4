import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { toOpenApiPath } from '../../server/http/route.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

describe('OpenAPI document', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  test('describes every route mounted on the API, and nothing that is not mounted', async () => {
    const doc = (await t.api('GET', '/api/openapi.json', { token: null })).body;
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const mounted = new Set(t.engine.mountedRoutes().map((r) => `${r.method.toUpperCase()} ${toOpenApiPath(r.path)}`));
    assert.ok(mounted.size >= 11, `expected the spec's routes, got ${[...mounted].join(', ')}`);
    assert.deepEqual(
      [...mounted].filter((r) => !documented.has(r)),
      [],
      'mounted but not documented',
    );
    assert.deepEqual(
      [...documented].filter((r) => !mounted.has(r)),
      [],
      'documented but not mounted',
    );
    for (const required of [
      'POST /api/endpoints',
      'GET /api/endpoints',
      'GET /api/endpoints/{endpointId}',
      'PATCH /api/endpoints/{endpointId}',
      'DELETE /api/endpoints/{endpointId}',
      'POST /api/endpoints/{endpointId}/regenerate-secret',
      'PUT /api/endpoints/{endpointId}/secret',
      'GET /api/webhooks/logs',
      'GET /api/webhooks/logs/{logId}',
      'GET /api/webhooks',
    ]) {
      assert.ok(documented.has(required), required);
    }
  });

  test('documents the request schemas, the bearer scheme and the error envelope', async () => {
    const doc = (await t.api('GET', '/api/openapi.json', { token: null })).body;
    const create = doc.paths['/api/endpoints'].post;
    assert.ok(create.requestBody.content['application/json'].schema);
    assert.ok(create.responses['201']);
    assert.ok(create.responses['400']);
    assert.deepEqual(create.security, [{ bearerAuth: [] }]);
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
    const list = doc.paths['/api/webhooks/logs'].get;
    const names = list.parameters.map((p: { name: string }) => p.name).sort();
    assert.deepEqual(names, ['after', 'endpointId', 'eventType', 'limit', 'offset', 'pinned', 'search', 'status']);
  });

  test("the document's own answer satisfies the schema it declares for it (not enveloped, open objects)", async () => {
    const r = await t.api('GET', '/api/openapi.json', { token: null });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const doc = r.body;
    // As tests/integration/api-conformance.test.ts validates every answer: ajv, JSON Schema 2020-12 (OpenAPI 3.1's).
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi');
    const validate = ajv.compile({
      $ref: 'openapi#/paths/~1api~1openapi.json/get/responses/200/content/application~1json/schema',
    });
    assert.equal(validate(doc), true, ajv.errorsText(validate.errors));
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.success, undefined, 'the document itself, not in the { success, data } envelope');
    // What the schema is for: it tells the document from an error envelope or another JSON answer.
    assert.equal(validate({ success: true, data: doc }), false);
    assert.equal(validate({ success: false, error: { code: 'INTERNAL', message: 'x' } }), false);
  });

  test('GET /api/version answers name and version', async () => {
    const r = await t.api('GET', '/api/version');
    assert.equal(r.body.data.name, 'hookscope');
    assert.match(r.body.data.version, /^\d+\.\d+\.\d+/);
  });
});
