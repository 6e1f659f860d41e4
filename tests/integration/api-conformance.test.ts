import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { after, before, describe, SLOW_TEST_TIMEOUT_MS, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { closedPort, type ClosedPort } from '../helpers/closed-port.ts';
import { TargetServer, waitUntil } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * Every operation of the OpenAPI document, driven over HTTP against a real
 * engine, success and error cases; each actual body is validated (ajv, JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1) against the document's schema for
 * the status it came with. An undocumented status fails, and so does a
 * documented one no case produced (except those listed in NOT_DRIVEN, with why).
 */

type Doc = {
  paths: Record<
    string,
    Record<string, { security?: unknown[]; requestBody?: unknown; responses: Record<string, any> }>
  >;
};

/** A report of a request the client sent itself (POST .../sent): a plain send answered 200. */
const sentReport = (targetUrl: string) => ({
  targetUrl,
  method: 'POST',
  requestHeaders: [['Host', new URL(targetUrl).host]],
  edited: false,
  status: 200,
  responseTime: 4,
  responseHeaders: [],
  responseBody: '',
  responseTruncated: false,
  error: null,
});

interface Case {
  /** `get /api/endpoints/{endpointId}` */
  op: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Raw body bytes and their content type, instead of JSON. */
  rawBody?: { contentType: string; data: string | Buffer };
  token?: string | null;
  host?: string;
  headers?: Record<string, string>;
  /** The status this case must produce. */
  expect: number;
}

// Statuses a route documents but no request from outside can produce on a healthy engine.
const NOT_DRIVEN: Record<string, string> = {
  '500': 'an engine fault (tests/reliability covers faults and their errorId)',
  '503': 'the store refusing writes or the engine stopping (tests/reliability)',
  'post /api/endpoints/{endpointId}/test-delivery 502': "the engine's own receiver unreachable",
  'post /api/endpoints/{endpointId}/test-delivery 504': "the engine's own receiver not answering",
  'get /api/events 429':
    'an account holding maxEventStreamsPerAccount open streams (tests/integration/events.test.ts checks that answer)',
  'post /api/session 429':
    'a source over the sign-in rate limit, off on loopback by default (tests/integration/team-serving.test.ts checks that answer)',
  'post /api/session/codes 429':
    'a source over the sign-in rate limit, off on loopback by default (tests/integration/team-serving.test.ts checks that answer)',
  'post /api/session/token 429':
    'a source over the sign-in rate limit, off on loopback by default (tests/integration/session-token.test.ts checks that answer)',
};

describe('API conformance: every response matches the OpenAPI document', () => {
  let t: TestEngine;
  let doc: Doc;
  let ajv: Ajv2020;
  let target: TargetServer;
  let slow: TargetServer;
  let refused: ClosedPort;
  let otherToken: string;
  const ids: Record<string, string> = {};

  before(async () => {
    // A small body limit gives a truncated log (replay 409) without megabytes of traffic. The LLM key
    // counts as set by the environment, so a settings change that would undo it is a 409.
    t = await startTestEngine({
      maxBodyBytes: 4096,
      sources: { 'llm.apiKey': { from: 'env', name: 'HOOKSCOPE_LLM_API_KEY' } },
    });
    target = await TargetServer.start(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
    }));
    slow = await TargetServer.start(() => ({ hang: true }));
    refused = await closedPort();
    otherToken = await t.engine.issueToken('someone-else');

    doc = (await t.api('GET', '/api/openapi.json', { token: null })).body;
    // strict: false because the document carries OpenAPI keywords (openapi, paths...) next to the schemas.
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(doc, 'openapi');

    ids.signInCode = (await t.api('POST', '/api/session/codes')).body.data.code as string;
    ids.tokenCode = (await t.api('POST', '/api/session/codes')).body.data.code as string;
    // A browser signed in as the owner, and a link for another account (redeeming it there asks first: 409).
    const ownerCode = (await t.api('POST', '/api/session/codes')).body.data.code as string;
    const signedIn = await t.api('POST', '/api/session', { token: null, body: { code: ownerCode } });
    ids.ownerCookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    ids.otherSignInCode = (await t.api('POST', '/api/session/codes', { token: otherToken })).body.data.code as string;
    ids.stripe = await t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: 'whsec_conformance' });
    ids.hmac = await t.endpoint({ name: 'hmac', validationType: 'hmac_sha256', webhookSecret: 'a-long-secret' });
    ids.inactive = await t.endpoint({ name: 'off', validationType: 'none' });
    await t.api('PATCH', `/api/endpoints/${ids.inactive}`, { body: { isActive: false } });
    ids.doomed = await t.endpoint({ name: 'doomed', validationType: 'none' });
    ids.none = await t.endpoint({ name: 'none', validationType: 'none', forwardUrl: target.url });

    // A delivery that fails verification (analyze 200) and one that passes (analyze 409).
    // It names its event, so the documents' eventType is checked as a string too, not only as null.
    await t.deliver(`/webhook/${ids.stripe}`, {
      body: '{"id":"evt_1","type":"invoice.paid"}',
      headers: { 'content-type': 'application/json' },
    });
    await t.deliver(`/webhook/${ids.none}`, {
      body: '{"id":"evt_2"}',
      headers: { 'content-type': 'application/json' },
    });
    // Chunked and over maxBodyBytes: its first bytes are stored (truncated), so replaying it without a body is 409.
    await rawRequest(`${t.engine.receiverUrl}/webhook/${ids.none}/big`, { body: 'x'.repeat(5000), chunked: true });
    const logs = await waitUntil(async () => {
      const r = await t.api('GET', '/api/webhooks/logs?limit=10');
      return r.body.data.logs.length === 3 ? r.body.data.logs : null;
    }, 'three stored logs');
    ids.failedLog = logs.find((l: any) => l.endpointId === ids.stripe).id;
    ids.okLog = logs.find((l: any) => l.endpointId === ids.none && !l.truncated).id;
    ids.truncatedLog = logs.find((l: any) => l.truncated).id;

    const first = await t.api('POST', `/api/replay/${ids.okLog}`, { body: { targetUrl: target.url } });
    const second = await t.api('POST', `/api/replay/${ids.okLog}`, { body: { targetUrl: target.url } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    ids.replayA = first.body.data.id;
    ids.replayB = second.body.data.id;
    await t.api('POST', `/api/webhooks/${ids.failedLog}/share`, { body: {} });

    // Logs for the delete cases to consume, on an endpoint of their own (which the clear case empties).
    ids.clearable = await t.endpoint({ name: 'clearable', validationType: 'none' });
    const disposable = async (): Promise<string> =>
      (await t.deliver(`/webhook/${ids.clearable}`, { body: 'bye' })).body.data.id as string;
    ids.deleteOne = await disposable();
    ids.deleteMany = await disposable();
    await disposable();
  });

  after(async () => {
    await t.stop();
    await target.close();
    await slow.close();
    await refused.release();
  });

  function schemaFor(op: string, status: number, contentType: string): ValidateFunction {
    const [method, path] = op.split(' ') as [string, string];
    const responses = doc.paths[path]?.[method]?.responses;
    assert.ok(responses, `${op} is not in the document`);
    const res = responses[String(status)];
    assert.ok(res, `${op} answered ${status}, which the document does not list (${Object.keys(responses).join(', ')})`);
    const media = contentType.split(';')[0]!.trim();
    assert.ok(res.content?.[media], `${op} ${status} answered ${media}, which the document does not list`);
    const pointer = `openapi#/paths/${escape(path)}/${method}/responses/${status}/content/${escape(media)}/schema`;
    return ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  }

  async function send(c: Case): Promise<{ status: number; contentType: string; body: unknown }> {
    const [method, template] = c.op.split(' ') as [string, string];
    let path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = c.params?.[name];
      assert.ok(v !== undefined, `${c.op}: no value for {${name}}`);
      return v.startsWith('%') ? v : encodeURIComponent(v);
    });
    if (c.query) path += `?${new URLSearchParams(c.query).toString()}`;
    const headers: [string, string][] = Object.entries(c.headers ?? {});
    const token = c.token === undefined ? t.token : c.token;
    if (token) headers.push(['authorization', `Bearer ${token}`]);
    if (c.host) headers.push(['host', c.host]);
    let body: string | Buffer | undefined;
    if (c.rawBody) {
      headers.push(['content-type', c.rawBody.contentType]);
      body = c.rawBody.data;
    } else if (c.body !== undefined) {
      headers.push(['content-type', 'application/json']);
      body = JSON.stringify(c.body);
    }
    if (method === 'get' && template === '/api/events' && c.expect === 200) return openStream(path, headers);
    const r = await rawRequest(t.engine.apiUrl + path, { method: method.toUpperCase(), headers, body });
    const contentType = String(r.headers['content-type'] ?? '');
    const text = r.body.toString('utf8');
    return {
      status: r.status,
      contentType,
      body: contentType.startsWith('application/json') ? JSON.parse(text) : text,
    };
  }

  /** An event stream never ends: read its head and first bytes, then hang up. */
  async function openStream(path: string, headers: [string, string][]) {
    const ac = new AbortController();
    const res = await fetch(t.engine.apiUrl + path, { headers: Object.fromEntries(headers), signal: ac.signal });
    ac.abort();
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: '' };
  }

  test(
    'every operation answers only documented statuses, in the documented shape',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const cases = [...specificCases(), ...genericCases()];
      const covered = new Set<string>();
      const failures: string[] = [];
      for (const c of cases) {
        const r = await send(c);
        const label = `${c.op} -> ${r.status} (expected ${c.expect})`;
        if (r.status !== c.expect) {
          failures.push(`${label}: ${JSON.stringify(r.body).slice(0, 300)}`);
          continue;
        }
        try {
          const validate = schemaFor(c.op, r.status, r.contentType);
          if (!validate(r.body)) failures.push(`${label}: ${ajv.errorsText(validate.errors)}`);
        } catch (e) {
          failures.push(`${label}: ${(e as Error).message}`);
        }
        covered.add(`${c.op} ${r.status}`);
      }
      assert.deepEqual(failures, [], `responses that do not match the document:\n${failures.join('\n')}`);

      const missing: string[] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          for (const status of Object.keys(op.responses)) {
            const key = `${method} ${path} ${status}`;
            if (!covered.has(key) && !NOT_DRIVEN[status] && !NOT_DRIVEN[key]) missing.push(key);
          }
        }
      }
      assert.deepEqual(missing, [], 'documented statuses that no case produced');
    },
  );

  /** Per operation: what succeeds, and its own errors. */
  function specificCases(): Case[] {
    return [
      { op: 'get /api/version', token: null, expect: 200 },
      { op: 'get /api/openapi.json', token: null, expect: 200 },
      { op: 'get /api/endpoints', expect: 200 },
      { op: 'post /api/endpoints', body: { name: 'new', validationType: 'none' }, expect: 201 },
      { op: 'post /api/endpoints', body: { name: 'new', validationType: 'nope' }, expect: 400 },
      { op: 'get /api/endpoints/{endpointId}', params: { endpointId: ids.stripe! }, expect: 200 },
      {
        op: 'patch /api/endpoints/{endpointId}',
        params: { endpointId: ids.stripe! },
        body: { name: 'renamed' },
        expect: 200,
      },
      { op: 'patch /api/endpoints/{endpointId}', params: { endpointId: ids.stripe! }, body: {}, expect: 400 },
      {
        op: 'post /api/endpoints',
        body: {
          name: 'custom',
          validationType: 'none',
          customResponse: { status: 503, headers: [{ name: 'Retry-After', value: '60' }], body: 'busy', delayMs: 10 },
        },
        expect: 201,
      },
      {
        op: 'post /api/endpoints',
        body: { name: 'custom', validationType: 'none', customResponse: { status: 200, delayMs: 30001 } },
        expect: 400,
      },
      {
        op: 'patch /api/endpoints/{endpointId}',
        params: { endpointId: ids.hmac! },
        body: { customResponse: { status: 202 } },
        expect: 200,
      },
      { op: 'delete /api/endpoints/{endpointId}', params: { endpointId: ids.doomed! }, expect: 200 },
      { op: 'post /api/endpoints/{endpointId}/regenerate-secret', params: { endpointId: ids.hmac! }, expect: 200 },
      { op: 'post /api/endpoints/{endpointId}/regenerate-secret', params: { endpointId: ids.stripe! }, expect: 409 },
      {
        op: 'put /api/endpoints/{endpointId}/secret',
        params: { endpointId: ids.stripe! },
        body: { webhookSecret: 'whsec_conformance_rolled' },
        expect: 200,
      },
      { op: 'put /api/endpoints/{endpointId}/secret', params: { endpointId: ids.stripe! }, body: {}, expect: 400 },
      {
        op: 'put /api/endpoints/{endpointId}/secret',
        params: { endpointId: ids.none! },
        body: { webhookSecret: 'whsec_conformance' },
        expect: 409,
      },
      { op: 'post /api/endpoints/{endpointId}/test-delivery', params: { endpointId: ids.none! }, expect: 200 },
      { op: 'post /api/endpoints/{endpointId}/test-delivery', params: { endpointId: ids.inactive! }, expect: 409 },
      { op: 'get /api/endpoints/{endpointId}/forward', params: { endpointId: ids.none! }, expect: 200 },
      { op: 'get /api/webhooks/logs', query: { status: 'failed' }, expect: 200 },
      { op: 'get /api/webhooks/logs', query: { limit: 'many' }, expect: 400 },
      { op: 'get /api/webhooks/logs', query: { pinned: 'true' }, expect: 200 },
      { op: 'get /api/webhooks/logs', query: { pinned: 'maybe' }, expect: 400 },
      { op: 'get /api/webhooks/logs', query: { eventType: 'invoice.paid' }, expect: 200 },
      { op: 'get /api/webhooks/logs', query: { eventType: 'x'.repeat(121) }, expect: 400 },
      { op: 'get /api/webhooks/logs', query: { after: ids.okLog! }, expect: 200 },
      { op: 'get /api/webhooks/logs', query: { after: ids.okLog!, offset: '0' }, expect: 400 },
      { op: 'get /api/webhooks/logs', query: { after: 'log_never_stored' }, expect: 404 },
      { op: 'get /api/webhooks/logs/{logId}', params: { logId: ids.okLog! }, expect: 200 },
      { op: 'patch /api/webhooks/logs/{logId}', params: { logId: ids.okLog! }, body: { pinned: true }, expect: 200 },
      { op: 'patch /api/webhooks/logs/{logId}', params: { logId: ids.okLog! }, body: {}, expect: 400 },
      { op: 'delete /api/webhooks/logs/{logId}', params: { logId: ids.deleteOne! }, expect: 200 },
      { op: 'post /api/webhooks/logs/delete', body: { ids: [ids.deleteMany!, 'log_unknown'] }, expect: 200 },
      { op: 'post /api/webhooks/logs/delete', body: { ids: [] }, expect: 400 },
      { op: 'delete /api/endpoints/{endpointId}/logs', params: { endpointId: ids.clearable! }, expect: 200 },
      { op: 'get /api/webhooks/logs/{logId}', params: { logId: ids.truncatedLog! }, expect: 200 },
      { op: 'get /api/webhooks', expect: 200 },
      { op: 'get /api/webhooks', query: { offset: '-1' }, expect: 400 },
      { op: 'get /api/webhooks/compare', query: { a: ids.okLog!, b: ids.failedLog! }, expect: 200 },
      { op: 'get /api/webhooks/compare', query: { a: ids.okLog!, b: ids.truncatedLog! }, expect: 200 },
      { op: 'get /api/webhooks/compare', query: { a: ids.okLog! }, expect: 400 },
      { op: 'get /api/webhooks/compare', query: { a: ids.okLog!, b: 'log_nope' }, expect: 404 },
      ...['curl', 'json', 'har', 'http'].map((format) => ({
        op: 'get /api/webhooks/logs/{logId}/export',
        params: { logId: ids.okLog! },
        query: { format },
        expect: 200,
      })),
      { op: 'post /api/webhooks/logs/{logId}/analyze', params: { logId: ids.failedLog! }, expect: 200 },
      { op: 'post /api/webhooks/logs/{logId}/analyze', params: { logId: ids.okLog! }, body: {}, expect: 409 },
      { op: 'get /api/cli/explain/{logId}', params: { logId: ids.failedLog! }, expect: 200 },
      { op: 'get /api/cli/explain/{logId}', params: { logId: ids.failedLog! }, query: { format: 'text' }, expect: 200 },
      { op: 'get /api/cli/explain/{logId}', params: { logId: ids.okLog! }, expect: 409 },
      {
        op: 'get /api/cli/diagnose/{logId}',
        params: { logId: ids.failedLog! },
        query: { target: target.url },
        expect: 200,
      },
      { op: 'get /api/cli/diagnose/{logId}', params: { logId: ids.okLog! }, expect: 200 },
      {
        op: 'post /api/webhooks/{logId}/share',
        params: { logId: ids.okLog! },
        body: { expiresInHours: 2 },
        expect: 201,
      },
      { op: 'delete /api/webhooks/{logId}/share', params: { logId: ids.failedLog! }, expect: 200 },
      {
        op: 'post /api/replay/{webhookLogId}',
        params: { webhookLogId: ids.okLog! },
        body: { targetUrl: target.url },
        expect: 200,
      },
      {
        op: 'post /api/replay/{webhookLogId}',
        params: { webhookLogId: ids.truncatedLog! },
        body: { targetUrl: target.url },
        expect: 409,
      },
      {
        op: 'post /api/replay/{webhookLogId}',
        params: { webhookLogId: ids.okLog! },
        body: { targetUrl: refused.url },
        expect: 502,
      },
      {
        op: 'post /api/replay/{webhookLogId}',
        params: { webhookLogId: ids.okLog! },
        body: { targetUrl: slow.url, timeoutMs: 200 },
        expect: 504,
      },
      {
        op: 'post /api/webhooks/{id}/replay',
        params: { id: ids.okLog! },
        body: { targetUrl: target.url },
        expect: 200,
      },
      {
        op: 'post /api/webhooks/{id}/replay',
        params: { id: ids.truncatedLog! },
        body: { targetUrl: target.url },
        expect: 409,
      },
      {
        op: 'post /api/webhooks/{id}/replay',
        params: { id: ids.okLog! },
        body: { targetUrl: refused.url },
        expect: 502,
      },
      {
        op: 'post /api/webhooks/{id}/replay',
        params: { id: ids.okLog! },
        body: { targetUrl: slow.url, timeoutMs: 200 },
        expect: 504,
      },
      {
        op: 'post /api/replay/{webhookLogId}/outgoing',
        params: { webhookLogId: ids.okLog! },
        body: { targetUrl: target.url, resign: true },
        expect: 200,
      },
      {
        op: 'post /api/replay/{webhookLogId}/outgoing',
        params: { webhookLogId: ids.truncatedLog! },
        body: { targetUrl: target.url },
        expect: 409,
      },
      {
        op: 'post /api/replay/{webhookLogId}/sent',
        params: { webhookLogId: ids.okLog! },
        body: { ...sentReport(target.url), status: null, error: { code: 'TARGET_TIMEOUT', message: 'No answer.' } },
        expect: 200,
      },
      {
        op: 'post /api/replay/{webhookLogId}/sent',
        params: { webhookLogId: ids.truncatedLog! },
        body: sentReport(target.url),
        expect: 409,
      },
      { op: 'get /api/replay/{webhookLogId}/history', params: { webhookLogId: ids.okLog! }, expect: 200 },
      {
        op: 'get /api/replay/{webhookLogId}/replays/{replayId}',
        params: { webhookLogId: ids.okLog!, replayId: ids.replayA! },
        expect: 200,
      },
      {
        op: 'get /api/replay/{webhookLogId}/diff',
        params: { webhookLogId: ids.okLog! },
        query: { a: ids.replayA!, b: ids.replayB! },
        expect: 200,
      },
      { op: 'get /api/observability/metrics', expect: 200 },
      { op: 'get /api/observability/metrics', query: { window: 'forever' }, expect: 400 },
      { op: 'get /api/observability/refusals', expect: 200 },
      { op: 'get /api/observability/refusals', query: { window: '24h' }, expect: 400 },
      { op: 'get /api/tunnel', expect: 200 },
      { op: 'post /api/tunnel', body: { enabled: false }, expect: 200 },
      { op: 'post /api/tunnel', body: {}, expect: 400 },
      { op: 'post /api/tunnel', body: { enabled: false }, token: otherToken, expect: 403 },
      { op: 'get /api/settings', expect: 200 },
      { op: 'get /api/settings', token: otherToken, expect: 200 },
      { op: 'patch /api/settings', body: { retention: { maxLogsPerAccount: 10_000 } }, expect: 200 },
      { op: 'patch /api/settings', body: { rateLimit: { perSecond: -1 } }, expect: 400 },
      { op: 'patch /api/settings', body: { rateLimit: { burst: 5 } }, token: otherToken, expect: 403 },
      {
        op: 'patch /api/settings',
        body: { llm: { url: target.url, model: 'm', apiKey: 'not-the-variable' } },
        expect: 409,
      },
      { op: 'get /api/events', expect: 200 },
      { op: 'get /api/events', query: { lastEventId: 'yesterday' }, expect: 400 },
      { op: 'post /api/session/codes', expect: 201 },
      { op: 'post /api/session', token: null, body: { code: ids.signInCode! }, expect: 200 },
      { op: 'post /api/session', token: null, body: { code: ids.signInCode! }, expect: 401 },
      { op: 'post /api/session', token: null, body: {}, expect: 400 },
      {
        op: 'post /api/session',
        token: null,
        headers: { cookie: ids.ownerCookie! },
        body: { code: ids.otherSignInCode! },
        expect: 409,
      },
      { op: 'post /api/session/token', token: null, body: { code: ids.tokenCode! }, expect: 200 },
      { op: 'post /api/session/token', token: null, body: { code: ids.tokenCode! }, expect: 401 },
      { op: 'post /api/session/token', token: null, body: {}, expect: 400 },
      { op: 'get /api/session', expect: 200 },
      { op: 'delete /api/session', token: null, expect: 200 },
    ];
  }

  /**
   * What every operation of a kind answers: 403 for a foreign Host, 401 without a
   * token, 400 for an undecodable path parameter, 404 for unknown ids, 413 and
   * 415 for bodies that are too large or not JSON. Built from the document, so
   * a new operation is covered without a line here (its successes aside).
   */
  function genericCases(): Case[] {
    const out: Case[] = [];
    const valid = validRequests();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const key = `${method} ${path}`;
        const v = valid[key];
        assert.ok(v, `no valid request known for ${key}: add one to validRequests()`);
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        out.push({ ...v, op: key, host: 'evil.example', expect: 403 });
        if ((op.security ?? []).length > 0) out.push({ ...v, op: key, token: null, expect: 401 });
        if (names.length > 0) {
          out.push({ ...v, op: key, params: { ...v.params, [names[0]!]: '%E0%A4%A' }, expect: 400 });
          out.push({ ...v, op: key, params: Object.fromEntries(names.map((n) => [n, 'nope_404'])), expect: 404 });
        }
        if (op.requestBody) {
          out.push({ ...v, op: key, rawBody: { contentType: 'text/plain', data: 'hello' }, expect: 415 });
          const big = JSON.stringify({ filler: 'x'.repeat(1_100_000) });
          out.push({ ...v, op: key, rawBody: { contentType: 'application/json', data: big }, expect: 413 });
        }
      }
    }
    return out;
  }

  /** One request per operation that passes validation, for the generic cases to bend. */
  function validRequests(): Record<string, Omit<Case, 'op' | 'expect'>> {
    const log = { logId: ids.okLog! };
    return {
      'get /api/version': { token: null },
      'get /api/openapi.json': { token: null },
      'get /api/endpoints': {},
      'post /api/endpoints': { body: { name: 'n', validationType: 'none' } },
      'get /api/endpoints/{endpointId}': { params: { endpointId: ids.stripe! } },
      'patch /api/endpoints/{endpointId}': { params: { endpointId: ids.stripe! }, body: { name: 'n' } },
      'delete /api/endpoints/{endpointId}': { params: { endpointId: ids.stripe! } },
      'post /api/endpoints/{endpointId}/regenerate-secret': { params: { endpointId: ids.hmac! }, body: {} },
      'put /api/endpoints/{endpointId}/secret': {
        params: { endpointId: ids.stripe! },
        body: { webhookSecret: 'whsec_conformance' },
      },
      'post /api/endpoints/{endpointId}/test-delivery': { params: { endpointId: ids.none! }, body: {} },
      'get /api/endpoints/{endpointId}/forward': { params: { endpointId: ids.none! } },
      'get /api/webhooks/logs': {},
      'get /api/webhooks/logs/{logId}': { params: log },
      'patch /api/webhooks/logs/{logId}': { params: log, body: { pinned: true } },
      'delete /api/webhooks/logs/{logId}': { params: log },
      'post /api/webhooks/logs/delete': { body: { ids: [ids.okLog!] } },
      'delete /api/endpoints/{endpointId}/logs': { params: { endpointId: ids.none! } },
      'get /api/webhooks': {},
      'get /api/webhooks/compare': { query: { a: ids.okLog!, b: ids.failedLog! } },
      'get /api/webhooks/logs/{logId}/export': { params: log, query: { format: 'json' } },
      'post /api/webhooks/logs/{logId}/analyze': { params: log, body: {} },
      'get /api/cli/explain/{logId}': { params: log },
      'get /api/cli/diagnose/{logId}': { params: log },
      'post /api/webhooks/{logId}/share': { params: log, body: {} },
      'delete /api/webhooks/{logId}/share': { params: log },
      'post /api/replay/{webhookLogId}': { params: { webhookLogId: ids.okLog! }, body: { targetUrl: target.url } },
      'post /api/webhooks/{id}/replay': { params: { id: ids.okLog! }, body: { targetUrl: target.url } },
      'post /api/replay/{webhookLogId}/outgoing': {
        params: { webhookLogId: ids.okLog! },
        body: { targetUrl: target.url },
      },
      'post /api/replay/{webhookLogId}/sent': { params: { webhookLogId: ids.okLog! }, body: sentReport(target.url) },
      'get /api/replay/{webhookLogId}/history': { params: { webhookLogId: ids.okLog! } },
      'get /api/replay/{webhookLogId}/replays/{replayId}': {
        params: { webhookLogId: ids.okLog!, replayId: ids.replayA! },
      },
      'get /api/replay/{webhookLogId}/diff': {
        params: { webhookLogId: ids.okLog! },
        query: { a: ids.replayA!, b: ids.replayB! },
      },
      'get /api/observability/metrics': {},
      'get /api/observability/refusals': {},
      'get /api/tunnel': {},
      'post /api/tunnel': { body: { enabled: false } },
      'get /api/settings': {},
      'patch /api/settings': { body: { retention: { maxLogsPerAccount: 10_000 } } },
      'get /api/events': {},
      'post /api/session/codes': {},
      'post /api/session': { token: null, body: { code: 'not-a-code' } },
      'post /api/session/token': { token: null, body: { code: 'not-a-code' } },
      'get /api/session': {},
      'delete /api/session': { token: null },
    };
  }
});

/** A JSON pointer segment (RFC 6901), percent-encoded for use in a URI fragment. */
function escape(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}
