import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from '../helpers/node-test.ts';
import fc from 'fast-check';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * Bad input never becomes a 5xx (issue: malformed ids answered 500). For every
 * operation in the OpenAPI document, fast-check sends arbitrary bytes as each
 * path parameter, each query value and each JSON field (and arbitrary JSON as
 * the whole body), and the engine must answer below 500 with the envelope and
 * report no fault to its error sink. Every URL-like field points at a loopback
 * server that answers 200, so replays and the tunnel never leave this machine
 * and a refused target (an honest 502) is not mistaken for a fault.
 */

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: Record<string, JsonSchema> | null;
}
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}

interface Sent {
  status: number;
  contentType: string;
  body: string;
}

/** Bytes as they may appear in a request target: unsafe ones %-encoded, `%` itself left raw now and then. */
const pathBytes = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`),
      fc.constantFrom('%', '%z', '%%', '%c3', '%e2%82', '.', '..', '~', '-', '_', ';', ',', '=', '@', '+', '!', '$'),
      fc.string({ minLength: 1, maxLength: 4 }).map((s) => encodeURIComponent(s)),
    ),
    { minLength: 0, maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const URL_LIKE = /url|host|target/i;

function send(base: string, method: string, path: string, body: string | undefined, token: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    const req = request({
      host: u.hostname,
      port: u.port,
      method: method.toUpperCase(),
      path,
      headers: { authorization: `Bearer ${token}` },
    });
    if (body !== undefined) {
      req.setHeader('content-type', 'application/json');
      req.setHeader('content-length', Buffer.byteLength(body));
    }
    req.on('response', (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      // A stream (the SSE route) is judged by its status and headers; its body never ends.
      if (contentType.startsWith('text/event-stream')) {
        resolve({ status: res.statusCode ?? 0, contentType, body: '' });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const schema = op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
      ops.push({
        method,
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: schema ? (schema.properties ?? {}) : null,
      });
    }
  }
  return ops;
}

/** Values a field may get: anything JSON, any string, and the values its schema names. */
function fieldValue(name: string, schema: JsonSchema, loopback: string): fc.Arbitrary<unknown> {
  const named = [...(schema.enum ?? []), ...(schema.anyOf ?? []).flatMap((s) => s.enum ?? [])];
  const choices: fc.Arbitrary<unknown>[] = [
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 64 }),
  ];
  if (named.length > 0) choices.push(fc.constantFrom(...named));
  if (URL_LIKE.test(name)) {
    // Never a real host: the loopback target, or a string that cannot parse as an http URL.
    return fc.oneof(
      fc.constant(`${loopback}/fuzz`),
      fc.string({ maxLength: 40 }).map((s) => `not a url ${s}`),
      fc.integer(),
      fc.constant(null),
    );
  }
  return fc.oneof(...choices);
}

describe('no input makes the API answer 5xx', () => {
  let t: TestEngine;
  let target: TargetServer;
  const faults: unknown[] = [];
  let ops: Operation[] = [];
  const realIds: string[] = [];

  before(async () => {
    target = await TargetServer.start(() => ({ status: 200, body: 'ok' }));
    t = await startTestEngine(
      { tunnel: { ...DEFAULT_CONFIG.tunnel, host: target.url, openTimeoutMs: 1000, probeIntervalMs: 0 } },
      { onError: (e) => faults.push(e) },
    );
    ops = operationsOf((await t.api('GET', '/api/openapi.json')).body);
    const ep = await t.endpoint({ name: 'fuzz', validationType: 'hmac_sha256', webhookSecret: 'fuzz-secret-value' });
    const log = (await t.deliver(`/webhook/${ep}`, { body: '{"a":1}' })).body.error.details.logId as string;
    realIds.push(ep, log);
  });
  after(async () => {
    await t.stop();
    await target.close();
  });

  test('arbitrary path parameters, query values and JSON fields on every documented operation', async () => {
    assert.ok(ops.length >= 25, `expected the whole API, found ${ops.length} operations`);
    const seen: string[] = [];
    for (const op of ops) {
      const body: fc.Arbitrary<string | undefined> = op.bodyFields
        ? fc.oneof(
            fc
              .record(
                Object.fromEntries(Object.entries(op.bodyFields).map(([k, s]) => [k, fieldValue(k, s, target.url)])),
                { requiredKeys: [] },
              )
              .map((o) => JSON.stringify(o)),
            fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
            fc.constant(undefined),
          )
        : fc.constant(undefined);
      const pathValue = fc.oneof(
        { weight: 3, arbitrary: pathBytes },
        { weight: 1, arbitrary: fc.constantFrom(...realIds) },
      );
      const queryValue = fc.oneof(
        pathBytes,
        fc.constantFrom(...realIds, 'true', '0', '-1', '1e309', `${target.url}/q`),
      );
      const input = fc.record({
        params: fc.tuple(...op.pathParams.map(() => pathValue)),
        query: fc.array(fc.tuple(fc.constantFrom(...(op.queryParams.length ? op.queryParams : ['x'])), queryValue), {
          maxLength: 4,
        }),
        body,
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ params, query, body: b }) => {
          let path = op.path;
          op.pathParams.forEach((name, i) => {
            // An empty segment would route elsewhere (a 404 is fine, but it tests nothing here).
            path = path.replace(`{${name}}`, params[i] || '%00');
          });
          const qs = query.map(([k, v]) => `${k}=${v}`).join('&');
          const url = qs ? `${path}?${qs}` : path;
          const r = await send(t.engine.apiUrl, op.method, url, b, t.token);
          assert.ok(r.status < 500, `${op.method.toUpperCase()} ${url} ${b ?? ''} -> ${r.status} ${r.body}`);
          if (r.contentType.startsWith('application/json') && r.status >= 400) {
            const env = JSON.parse(r.body);
            assert.equal(env.success, false);
            assert.equal(typeof env.error.code, 'string');
            assert.equal(typeof env.error.message, 'string');
          }
        }),
        { numRuns: 40 },
      );
      seen.push(`${op.method} ${op.path}`);
    }
    assert.equal(seen.length, ops.length);
    assert.deepEqual(
      faults.map((e) => (e instanceof Error ? e.message : String(e))),
      [],
    );
  });

  test('an undecodable path segment is a 400 INVALID_PATH on every operation, on both listeners', async () => {
    const bad = ['%', '%zz', '%ff%fe', '%c3%28', '%e2%82'];
    for (const op of ops.filter((o) => o.pathParams.length > 0)) {
      for (const seg of bad) {
        const path = op.pathParams.reduce((p, name) => p.replace(`{${name}}`, seg), op.path);
        const r = await send(t.engine.apiUrl, op.method, path, undefined, t.token);
        assert.equal(r.status, 400, `${op.method} ${path}: ${r.body}`);
        assert.equal(JSON.parse(r.body).error.code, 'INVALID_PATH', `${op.method} ${path}`);
      }
    }
    for (const base of [t.engine.receiverUrl, t.engine.apiUrl]) {
      for (const path of ['/webhook/%zz', '/webhook/%c3%28/x', '/share/%zz', '/%zz']) {
        const r = await send(base, 'post', path, '{}', t.token);
        assert.equal(r.status, 400, `${base}${path}: ${r.body}`);
        assert.equal(JSON.parse(r.body).error.code, 'INVALID_PATH');
      }
    }
    // A delivery's sub-path is captured as sent, decodable or not (its own endpoint: the
    // property test above may have deleted the shared one).
    const ep = await t.endpoint({ name: 'paths', validationType: 'hmac_sha256', webhookSecret: 'paths-secret-value' });
    const r = await send(t.engine.receiverUrl, 'post', `/webhook/${ep}/%zz/%c3%28?q=%ff`, '{}', t.token);
    assert.equal(r.status, 400); // signature missing: stored, not refused for its path
    const log = (await t.api('GET', `/api/webhooks/logs/${JSON.parse(r.body).error.details.logId}`)).body.data;
    assert.equal(log.path, '/%zz/%c3%28');
    assert.deepEqual(faults, []);
  });
});
