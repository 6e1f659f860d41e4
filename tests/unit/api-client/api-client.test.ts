import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { ApiError, NETWORK_ERROR } from '../../../server/api-client/api-error.ts';
import { closedPort } from '../../helpers/closed-port.ts';
import { after, before, describe, test } from '../../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../../helpers/test-engine.ts';

/** Runs `call` and answers the ApiError it must throw. */
async function apiError(call: () => Promise<unknown>): Promise<ApiError> {
  try {
    await call();
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to throw');
}

/** A plain HTTP server on a free port answering every request with `status`, `type` and `body`. */
async function fixedAnswer(status: number, type: string, body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('createApiClient against a real engine', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(async () => {
    await t.stop();
  });

  test('answers the data of the success envelope, typed by path, for path, query and body parameters', async () => {
    const api = createApiClient({ baseUrl: `${t.engine.apiUrl}/`, token: t.token });
    assert.equal(api.baseUrl, t.engine.apiUrl);

    const created = await api.post('/api/endpoints', {
      body: { name: 'typed', validationType: 'hmac_sha256', webhookSecret: 'shh' },
    });
    const id: string = created.id;
    assert.match(id, /^ep_/);
    assert.equal(created.name, 'typed');
    assert.equal(created.validationType, 'hmac_sha256');
    assert.equal(created.hasSecret, true);
    assert.equal(created.url, `${t.engine.receiverUrl}/webhook/${id}`);

    const read = await api.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: id } } });
    assert.deepEqual(read, created);

    const delivered = await t.deliver(`/webhook/${id}/a?x=1`, { body: 'unsigned' });
    assert.equal(delivered.status, 400);
    const page = await api.get('/api/webhooks/logs', { params: { query: { endpointId: id, limit: '1' } } });
    assert.equal(page.total, 1);
    assert.equal(page.limit, 1);
    const [log] = page.logs;
    assert.equal(log?.id, delivered.body.error.details.logId);
    assert.deepEqual([log?.path, log?.query, log?.status], ['/a', { x: '1' }, 'failed']);

    const patched = await api.patch('/api/endpoints/{endpointId}', {
      params: { path: { endpointId: id } },
      body: { isActive: false },
    });
    assert.equal(patched.isActive, false);

    const gone = await api.delete('/api/endpoints/{endpointId}', { params: { path: { endpointId: id } } });
    assert.deepEqual(gone, { id, deleted: true });
  });

  test('a path parameter is encoded, not taken as a path', async () => {
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const e = await apiError(() =>
      api.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: 'a/b?c' } } }),
    );
    assert.equal(e.status, 404);
    assert.equal(e.code, 'ENDPOINT_NOT_FOUND');
    assert.equal(e.message, 'Endpoint a/b?c was not found.');
  });

  test('an error envelope becomes an ApiError with status, code, message and details', async () => {
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const missing = await apiError(() =>
      api.get('/api/endpoints/{endpointId}', { params: { path: { endpointId: 'ep_nope' } } }),
    );
    assert.equal(missing.name, 'ApiError');
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'ENDPOINT_NOT_FOUND');
    assert.equal(missing.message, 'Endpoint ep_nope was not found.');
    assert.equal(missing.details, undefined);

    const invalid = await apiError(() => api.get('/api/webhooks/logs', { params: { query: { limit: '0' } } }));
    assert.equal(invalid.status, 400);
    assert.equal(invalid.code, 'VALIDATION_ERROR');
    assert.equal(invalid.message, 'Invalid query parameter "limit": limit must be between 1 and 200.');
    assert.deepEqual(invalid.details, {
      part: 'query',
      issues: [{ field: 'limit', message: 'limit must be between 1 and 200.' }],
    });
  });

  test('the token is sent as a bearer token; without one the engine answers 401', async () => {
    const anonymous = createApiClient({ baseUrl: t.engine.apiUrl });
    const e = await apiError(() => anonymous.get('/api/endpoints'));
    assert.equal(e.status, 401);
    assert.equal(e.code, 'MISSING_TOKEN');
    // Where no token is needed, none is sent and the call succeeds.
    const version = await anonymous.get('/api/version');
    assert.equal(version.api, '1');
  });

  test('getText answers a plain-text success as text; its errors still arrive as ApiError', async () => {
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const e = await apiError(() =>
      api.getText('/api/cli/explain/{logId}', { params: { path: { logId: 'log_nope' }, query: { format: 'text' } } }),
    );
    assert.equal(e.status, 404);
    assert.equal(e.code, 'LOG_NOT_FOUND');
  });

  test('openEvents opens the event stream with the token; a bad token is a 401 ApiError', async () => {
    const api = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    const stop = new AbortController();
    const stream = await api.openEvents(undefined, stop.signal);
    const reader = stream.getReader();
    const ep = await t.endpoint({ name: 'events', validationType: 'none' });
    await t.deliver(`/webhook/${ep}`, { body: 'hi' });
    let text = '';
    while (!text.includes('event: log.created')) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    stop.abort();
    await reader.cancel().catch(() => undefined);

    const bad = createApiClient({ baseUrl: t.engine.apiUrl, token: 'not-a-jwt' });
    const e = await apiError(() => bad.openEvents(undefined, new AbortController().signal));
    assert.equal(e.status, 401);
    assert.equal(e.code, 'INVALID_TOKEN');
  });
});

describe('createApiClient when the answer is not the API', () => {
  test('no answer at all is an ApiError with status 0 and code NETWORK_ERROR naming the address', async () => {
    const closed = await closedPort();
    try {
      const api = createApiClient({ baseUrl: closed.url, token: 't' });
      const e = await apiError(() => api.get('/api/endpoints'));
      assert.equal(e.status, 0);
      assert.equal(e.code, NETWORK_ERROR);
      assert.equal(e.message, `${closed.url} does not answer: connect ECONNREFUSED 127.0.0.1:${closed.port}`);
      assert.ok(e.cause instanceof TypeError);
    } finally {
      await closed.release();
    }
  });

  test('a custom fetch is used, and an error of its own passes through unchanged', async () => {
    class Refused extends Error {}
    const seen: string[] = [];
    const api = createApiClient({
      baseUrl: 'http://engine.invalid',
      token: 'tok',
      headers: { 'x-requested-by': 'hookscope' },
      fetch: async (request) => {
        seen.push(
          `${request.method} ${request.url} ${request.headers.get('authorization')} ${request.headers.get('x-requested-by')}`,
        );
        throw new Refused('not today');
      },
    });
    await assert.rejects(
      api.get('/api/webhooks/logs', { params: { query: { search: 'a b&c' } } }),
      (e) => e instanceof Refused,
    );
    assert.deepEqual(seen, ['GET http://engine.invalid/api/webhooks/logs?search=a%20b%26c Bearer tok hookscope']);
  });

  test('a body that is not JSON, and JSON without the envelope, are ApiErrors', async () => {
    const html = await fixedAnswer(502, 'text/html', '<h1>Bad gateway</h1>');
    const plain = await fixedAnswer(200, 'text/plain', 'hello');
    const bare = await fixedAnswer(200, 'application/json', '{"id":"ep_1"}');
    try {
      const bad = await apiError(() => createApiClient({ baseUrl: html.url }).get('/api/endpoints'));
      assert.deepEqual([bad.status, bad.code, bad.message], [502, 'HTTP_502', 'The engine answered 502.']);
      const notJson = await apiError(() => createApiClient({ baseUrl: plain.url }).get('/api/endpoints'));
      assert.deepEqual(
        [notJson.status, notJson.code, notJson.message],
        [200, 'HTTP_200', 'The engine answered 200 with a body that is not JSON.'],
      );
      const noEnvelope = await apiError(() => createApiClient({ baseUrl: bare.url }).get('/api/endpoints'));
      assert.deepEqual(
        [noEnvelope.status, noEnvelope.code, noEnvelope.message],
        [200, 'UNEXPECTED_RESPONSE', 'The engine answered 200 without the success envelope.'],
      );
    } finally {
      for (const s of [html, plain, bare]) s.server.close();
    }
  });
});
