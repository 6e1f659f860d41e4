import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { send, type SendResult } from '../../server/replay/http-sender.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { openSse, type SseStream } from '../helpers/sse-stream.ts';
import { TargetServer, type Received } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const STRIPE_SECRET = 'whsec_replay_sent_secret';
const PAYLOAD = '{"id":"evt_sent","type":"invoice.paid"}';
const EDITED = '{"id":"evt_sent","type":"invoice.paid","edited":true}';
// Small, so that a delivery can be stored truncated.
const MAX_BODY = 1024;

interface Outgoing {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
  bodyEncoding: 'utf8' | 'base64';
  edited: boolean;
}

/**
 * The desktop app on a team server: it asks the engine for the request
 * (outgoing, with the user's edits), sends it from the laptop itself (here: the
 * same http-sender the desktop's main process uses, to a real recording server),
 * then reports what it sent and what came back (sent), which the engine records
 * as a replay with trigger `client`.
 */
describe('POST /api/replay/{webhookLogId}/outgoing with edits, and /sent', () => {
  let t: TestEngine;
  let target: TargetServer;
  let events: SseStream;
  let stripeEp: string;
  let logId: string;

  before(async () => {
    t = await startTestEngine({ sseHeartbeatMs: 50, maxBodyBytes: MAX_BODY });
    target = await TargetServer.start((r) => ({
      status: 201,
      headers: { 'X-Handler': 'local' },
      body: `got ${r.method} ${r.body.length} bytes`,
    }));
    events = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    await events.waitForText(/retry: \d+/);
    stripeEp = await t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
    // Delivered at the endpoint's root without a query: outgoing's URL is then targetUrl itself, as a replay's.
    const d = await t.deliver(`/webhook/${stripeEp}`, {
      body: PAYLOAD,
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload: PAYLOAD, secret: STRIPE_SECRET }),
        'X-Custom': 'original',
        'X-Trace': 'trace-1',
      },
    });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    logId = d.body.data.id as string;
  });
  after(async () => {
    events.close();
    await target.close();
    await t.stop();
  });

  const outgoing = async (input: Record<string, unknown>, id = logId): Promise<Outgoing> => {
    const r = await t.api('POST', `/api/replay/${id}/outgoing`, { body: input });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as Outgoing;
  };

  /** Sends what outgoing built, as the desktop app does; returns the result and what the target got. */
  const sendFromLaptop = async (o: Outgoing): Promise<{ result: SendResult; received: Received }> => {
    const before = target.received.length;
    const result = await send({
      url: new URL(o.url),
      method: o.method,
      headers: o.headers,
      body: Buffer.from(o.body, o.bodyEncoding),
      timeoutMs: 10_000,
    });
    assert.equal(target.received.length, before + 1);
    return { result, received: target.received.at(-1)! };
  };

  /** The report of a send: what went out and what came back. */
  const report = (o: Outgoing, result: SendResult, body?: string) => ({
    targetUrl: o.url,
    method: o.method,
    requestHeaders: o.headers,
    ...(body === undefined ? {} : { body, bodyEncoding: 'utf8' }),
    edited: o.edited,
    status: result.status,
    responseTime: result.responseTime,
    responseHeaders: result.responseHeaders,
    responseBody: result.responseBody.toString('base64'),
    responseTruncated: result.responseTruncated,
    error: result.error,
  });

  const sent = (input: unknown, id = logId, token?: string) =>
    t.api('POST', `/api/replay/${id}/sent`, { body: input, token });

  const historyTotal = async (id = logId): Promise<number> =>
    (await t.api('GET', `/api/replay/${id}/history`)).body.data.total as number;

  const EDITS = {
    method: 'put',
    headers: { 'X-Trace': 'trace-2', 'X-Custom': null, 'X-Added': 'yes' },
    body: EDITED,
    bodyEncoding: 'utf8',
  };

  test('outgoing with method, header and body edits is exactly the request a server replay sends', async () => {
    const replayed = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/to`, ...EDITS } });
    assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
    const byServer = target.received.at(-1)!;

    const o = await outgoing({ targetUrl: `${target.url}/to`, ...EDITS });
    assert.equal(o.edited, true);
    assert.equal(o.method, 'PUT');
    assert.equal(o.url, `${target.url}/to`);
    assert.equal(o.body, EDITED);
    assert.deepEqual(o.headers, replayed.body.data.requestHeaders);
    const { received: byLaptop } = await sendFromLaptop(o);

    assert.equal(byLaptop.method, byServer.method);
    assert.equal(byLaptop.url, byServer.url);
    assert.deepEqual(byLaptop.rawHeaders, byServer.rawHeaders);
    assert.ok(byLaptop.body.equals(byServer.body));
    // The edits themselves, as received.
    assert.equal(byLaptop.headers['x-trace'], 'trace-2');
    assert.equal(byLaptop.headers['x-custom'], undefined);
    assert.equal(byLaptop.headers['x-added'], 'yes');
    assert.equal(byLaptop.headers['content-length'], String(Buffer.byteLength(EDITED)));
    assert.equal(byLaptop.body.toString(), EDITED);

    // Overrides that change nothing are no edit, as for a replay.
    const same = await outgoing({ targetUrl: `${target.url}/to`, method: 'POST', headers: { 'X-Trace': 'trace-1' } });
    assert.equal(same.edited, false);
    // Outgoing itself records nothing.
    assert.equal(await historyTotal(), 1);
  });

  test('re-signed after an edited body: the Stripe SDK accepts the signature over the edited bytes', async () => {
    const o = await outgoing({ targetUrl: target.url, body: EDITED, resign: true });
    const signature = o.headers.find(([n]) => n.toLowerCase() === 'stripe-signature')![1];
    assert.equal(stripe.webhooks.constructEvent(EDITED, signature, STRIPE_SECRET, 10).id, 'evt_sent');
    assert.throws(() => stripe.webhooks.constructEvent(PAYLOAD, signature, STRIPE_SECRET, 10));
    const { received } = await sendFromLaptop(o);
    const got = received.headers['stripe-signature'] as string;
    assert.equal(stripe.webhooks.constructEvent(received.body.toString(), got, STRIPE_SECRET, 10).id, 'evt_sent');
  });

  test('outgoing of a log stored truncated: 409 without a body, the request with one', async () => {
    // Chunked, so the receiver reads up to the limit and keeps those first bytes (a declared length is refused unread).
    const d = await rawRequest(`${t.engine.receiverUrl}/webhook/${stripeEp}`, {
      body: Buffer.alloc(MAX_BODY * 8, 'x'),
      chunked: true,
    });
    assert.equal(d.status, 413);
    const truncated = d.json().error.details.logId as string;
    assert.equal((await t.api('GET', `/api/webhooks/logs/${truncated}`)).body.data.truncated, true);
    const refused = await t.api('POST', `/api/replay/${truncated}/outgoing`, { body: { targetUrl: target.url } });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'LOG_BODY_TRUNCATED');
    const o = await outgoing({ targetUrl: target.url, body: 'whole' }, truncated);
    assert.equal(o.body, 'whole');
    assert.equal(o.edited, true);
    // A report of it without the body it sent is refused the same way, and stores nothing.
    const { result } = await sendFromLaptop(o);
    const noBody = await sent(report(o, result), truncated);
    assert.equal(noBody.status, 409);
    assert.equal(noBody.body.error.code, 'LOG_BODY_TRUNCATED');
    assert.equal(await historyTotal(truncated), 0);
  });

  test('sent records the attempt (trigger client): history, the exchange read back, the event, a diff with a server replay', async () => {
    const o = await outgoing({ targetUrl: `${target.url}/local`, ...EDITS });
    const { result, received } = await sendFromLaptop(o);
    assert.equal(result.status, 201);
    const mark = events.raw().length;

    const r = await sent(report(o, result, EDITED));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const detail = r.body.data;
    assert.match(detail.id, /^rp_/);
    assert.equal(detail.trigger, 'client');
    assert.equal(detail.status, 201);
    assert.equal(detail.responseTime, result.responseTime);
    assert.equal(detail.edited, true);
    assert.equal(detail.method, 'PUT');
    assert.equal(detail.targetUrl, `${target.url}/local`);
    assert.deepEqual(detail.requestHeaders, o.headers);
    assert.equal(detail.responseBody, `got PUT ${Buffer.byteLength(EDITED)} bytes`);
    assert.equal(detail.responseHeaders['x-handler'], 'local');

    const h = (await t.api('GET', `/api/replay/${logId}/history`)).body.data.history[0];
    assert.deepEqual(
      {
        id: h.id,
        trigger: h.trigger,
        status: h.status,
        responseTime: h.responseTime,
        edited: h.edited,
        error: h.error,
        method: h.method,
      },
      {
        id: detail.id,
        trigger: 'client',
        status: 201,
        responseTime: result.responseTime,
        edited: true,
        error: null,
        method: 'PUT',
      },
    );

    const x = (await t.api('GET', `/api/replay/${logId}/replays/${detail.id}`)).body.data;
    // The request read back is the one the target got: headers in order and case (Node adds Connection last), bytes.
    assert.deepEqual(x.requestHeaders, received.rawHeaders.slice(0, -1));
    assert.equal(x.requestBody, EDITED);
    assert.equal(x.requestBodyEncoding, 'utf8');
    assert.equal(x.requestBodySize, Buffer.byteLength(EDITED));
    assert.equal(x.requestBodyTruncated, false);
    assert.deepEqual(x.responseRawHeaders, result.responseHeaders);
    assert.equal(x.responseBody, `got PUT ${Buffer.byteLength(EDITED)} bytes`);
    assert.equal(x.truncated, false);

    const completed = await events.waitFor((e) => e.event === 'replay.completed' && e.data.includes(detail.id));
    assert.equal(JSON.parse(completed.data).trigger, 'client');
    await events.waitForText(
      new RegExp(`"logId":"${logId}","endpointId":"${stripeEp}","change":"replay"`),
      10_000,
      mark,
    );

    // A server replay of the same log (no edits) against the client's attempt.
    const server = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/local` } });
    const diff = await t.api('GET', `/api/replay/${logId}/diff?a=${server.body.data.id}&b=${detail.id}`);
    assert.equal(diff.status, 200, JSON.stringify(diff.body));
    assert.equal(diff.body.data.a.method, 'POST');
    assert.equal(diff.body.data.b.method, 'PUT');
    assert.deepEqual(diff.body.data.status, { a: 201, b: 201, changed: false });
    assert.equal(diff.body.data.body.changed, true);
    assert.equal(diff.body.data.identical, false);
  });

  test('an unmodified send reports no body; the exchange reads the log bytes back', async () => {
    const o = await outgoing({ targetUrl: target.url });
    assert.equal(o.edited, false);
    const { result } = await sendFromLaptop(o);
    const r = await sent(report(o, result));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.edited, false);
    const x = (await t.api('GET', `/api/replay/${logId}/replays/${r.body.data.id}`)).body.data;
    assert.equal(x.requestBody, PAYLOAD);
    assert.equal(x.requestBodySize, Buffer.byteLength(PAYLOAD));
  });

  test('a failure with no response is recorded like a server replay that found no target (200, error kept)', async () => {
    const o = await outgoing({ targetUrl: target.url });
    const r = await sent({
      ...report(o, {
        status: 201,
        responseTime: 3,
        responseHeaders: [],
        responseBody: Buffer.alloc(0),
        responseTruncated: false,
        error: null,
      }),
      status: null,
      error: { code: 'TARGET_UNREACHABLE', message: 'http://127.0.0.1:9/ could not be reached: refused.' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.status, null);
    assert.deepEqual(r.body.data.error, {
      code: 'TARGET_UNREACHABLE',
      message: 'http://127.0.0.1:9/ could not be reached: refused.',
    });
    assert.equal(r.body.data.responseTime, 3);
    const h = (await t.api('GET', `/api/replay/${logId}/history`)).body.data.history[0];
    assert.equal(h.id, r.body.data.id);
    assert.equal(h.error.code, 'TARGET_UNREACHABLE');
  });

  test('each invalid field is a 400 naming it, and nothing is stored', async () => {
    const o = await outgoing({ targetUrl: target.url, body: EDITED });
    const ok = {
      ...report(o, {
        status: 200,
        responseTime: 5,
        responseHeaders: [['Content-Type', 'text/plain']],
        responseBody: Buffer.from('fine'),
        responseTruncated: false,
        error: null,
      }),
      body: EDITED,
      bodyEncoding: 'utf8',
    };
    const failure = { status: null, error: { code: 'TARGET_TIMEOUT', message: 'no answer' } };
    const noResponse = { responseHeaders: [], responseBody: '', responseTruncated: false };
    const before = await historyTotal();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['targetUrl missing', { targetUrl: undefined }, /"targetUrl": targetUrl is required/],
      ['targetUrl not http', { targetUrl: 'ftp://localhost/' }, /"targetUrl": targetUrl must use http or https/],
      ['method unknown', { method: 'FETCH' }, /"method": method must be one of: GET, HEAD, POST/],
      ['method missing', { method: undefined }, /"method": method must be one of/],
      ['status 99', { status: 99 }, /"status": status must be a whole number from 100 to 599/],
      ['status 600', { status: 600 }, /"status": status must be a whole number from 100 to 599/],
      ['status 200.5', { status: 200.5 }, /"status": status must be a whole number/],
      ['responseTime negative', { responseTime: -1 }, /"responseTime": responseTime must be between 0 and 130000/],
      ['responseTime too long', { responseTime: 130_001 }, /"responseTime": responseTime must be between 0 and/],
      [
        'responseBody over 64 KiB',
        { responseBody: Buffer.alloc(64 * 1024 + 1, 1).toString('base64') },
        /"responseBody": responseBody must be at most 65536 bytes/,
      ],
      ['responseBody not base64', { responseBody: 'not base64!' }, /"responseBody": responseBody is not valid base64/],
      [
        'error code unknown',
        { ...failure, ...noResponse, error: { code: 'TARGET_REFUSED', message: 'x' } },
        /"error.code": error.code must be one of: TARGET_UNREACHABLE, TARGET_TIMEOUT, REQUEST_NOT_SENT/,
      ],
      [
        'error message too long',
        { ...failure, ...noResponse, error: { code: 'TARGET_TIMEOUT', message: 'm'.repeat(4097) } },
        /"error.message": error.message must be at most 4096 characters/,
      ],
      [
        'body with bad base64',
        { body: '***', bodyEncoding: 'base64' },
        // The field named "body" reads as the request body's own in the message's prefix.
        /body is not valid base64 \(bodyEncoding is base64\)/,
      ],
      ['bodyEncoding unknown', { bodyEncoding: 'hex' }, /"bodyEncoding": bodyEncoding must be utf8 or base64/],
      ['edited missing', { edited: undefined }, /"edited": edited must be true or false/],
      [
        'edited false with an edited body',
        { edited: false },
        /"edited": it must be true when the body sent differs from the log's bytes/,
      ],
      [
        'requestHeaders not pairs',
        { requestHeaders: { Host: 'x' } },
        /"requestHeaders": requestHeaders must be an array of \[name, value\] pairs/,
      ],
      [
        'requestHeaders bad name',
        { requestHeaders: [['Bad Name', 'x']] },
        /"requestHeaders.0": requestHeaders: "Bad Name" is not a valid header name/,
      ],
      [
        'responseHeaders with a line break',
        { responseHeaders: [['X-A', 'a\r\nb']] },
        /"responseHeaders.0": responseHeaders: X-A must be at most 8192 characters without line breaks/,
      ],
      ['neither status nor error', { status: null }, /"status": status is required when error is null/],
      ['both status and error', { error: failure.error }, /"error": error must be null when status is set/],
      [
        'a response beside an error',
        { ...failure },
        /"responseHeaders": responseHeaders must be empty \(or false\) when error is set/,
      ],
      ['responseTruncated missing', { responseTruncated: undefined }, /"responseTruncated": responseTruncated must/],
      ['an unknown field', { trigger: 'manual' }, /trigger: not a field of a sent request's report/],
    ];
    for (const [what, change, message] of cases) {
      const r = await sent({ ...ok, ...change });
      assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error.message, message, what);
    }
    assert.equal(await historyTotal(), before);
    // The same report, valid, is stored.
    assert.equal((await sent(ok)).status, 200);
    assert.equal(await historyTotal(), before + 1);
  });

  test('it acts: signed in by cookie (the renderer on a team server), it needs x-hookscope-request', async () => {
    const o = await outgoing({ targetUrl: target.url });
    const { result } = await sendFromLaptop(o);
    const code = (await t.api('POST', '/api/session/codes')).body.data.code as string;
    const session = await fetch(`${t.engine.apiUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    assert.equal(session.status, 200);
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const call = (headers: Record<string, string>) =>
      fetch(`${t.engine.apiUrl}/api/replay/${logId}/sent`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(report(o, result)),
      });
    const before = await historyTotal();
    const refused = await call({});
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'REQUEST_HEADER_REQUIRED');
    assert.equal(await historyTotal(), before);
    const accepted = await call({ 'x-hookscope-request': '1' });
    assert.equal(accepted.status, 200);
    assert.equal(await historyTotal(), before + 1);
  });

  test("another account's log is 404 like a missing one, and nothing is stored", async () => {
    const o = await outgoing({ targetUrl: target.url });
    const { result } = await sendFromLaptop(o);
    const other = await t.engine.issueToken('someone-else');
    const before = await historyTotal();
    for (const [id, token] of [
      [logId, other],
      ['log_missing', undefined],
    ] as const) {
      const r = await sent(report(o, result), id, token);
      assert.equal(r.status, 404, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'LOG_NOT_FOUND');
    }
    assert.equal(await historyTotal(), before);
    const theirs = await t.api('GET', '/api/observability/metrics?window=1h', { token: other });
    assert.equal(theirs.body.data.replays.total, 0);
  });

  test('metrics count client attempts by trigger', async () => {
    // An account of its own, so every attempt counted is one of this test's.
    const token = await t.engine.issueToken('metrics-counter');
    const ep = await t.endpoint({ name: 'open', validationType: 'none' }, token);
    const d = await t.deliver(`/webhook/${ep}`, { body: 'count me' });
    const id = d.body.data.id as string;
    const o = (await t.api('POST', `/api/replay/${id}/outgoing`, { body: { targetUrl: target.url }, token })).body
      .data as Outgoing;
    for (let i = 0; i < 2; i++) {
      const { result } = await sendFromLaptop(o);
      assert.equal((await sent(report(o, result), id, token)).status, 200);
    }
    assert.equal((await t.api('POST', `/api/replay/${id}`, { body: { targetUrl: target.url }, token })).status, 200);
    const m = (await t.api('GET', '/api/observability/metrics?window=1h', { token })).body.data.replays;
    assert.deepEqual(m.byTrigger, { manual: 1, forward: 0, client: 2 });
    assert.equal(m.total, 3);
    assert.equal(m.succeeded, 3);
  });
});
