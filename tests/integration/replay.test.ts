import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { rawRequest } from '../helpers/raw-request.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { TargetServer, type Reply } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const HMAC_SECRET = 'replay-hmac-secret';
const STRIPE_SECRET = 'whsec_replay_test_secret';

const hmacHex = (body: string | Buffer) => createHmac('sha256', HMAC_SECRET).update(body).digest('hex');
const names = (pairs: [string, string][]) => pairs.map(([n]) => n);

describe('replay', () => {
  let t: TestEngine;
  let target: TargetServer;
  let openEp: string;
  let hmacEp: string;

  before(async () => {
    t = await startTestEngine();
    target = await TargetServer.start();
    openEp = await t.endpoint({ name: 'open', validationType: 'none' });
    hmacEp = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: HMAC_SECRET });
  });
  after(async () => {
    await target.close();
    await t.stop();
  });

  /** Delivers to the receiver and returns the stored log id (accepted or not). */
  const capture = async (
    endpointId: string,
    init: { method?: string; body?: string | Buffer; headers?: Record<string, string> },
  ) => {
    const r = await t.deliver(`/webhook/${endpointId}`, init);
    const id: string | undefined = r.body.data?.id ?? r.body.error?.details?.logId;
    assert.ok(id, `no log id in ${JSON.stringify(r.body)}`);
    return id;
  };
  const replay = (logId: string, body: unknown) => t.api('POST', `/api/replay/${logId}`, { body });
  const last = () => target.received.at(-1)!;

  describe('what is sent', () => {
    test('a binary body arrives byte for byte, with the original method', async () => {
      const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
      const logId = await capture(openEp, {
        method: 'PUT',
        body: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      });
      const r = await replay(logId, { targetUrl: `${target.url}/hooks/binary` });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.data.status, 200);
      assert.match(r.body.data.id, /^rp_[0-9a-z]+$/);
      assert.equal(last().method, 'PUT');
      assert.equal(last().url, '/hooks/binary');
      assert.ok(last().body.equals(bytes), 'the body must be the exact bytes');
      assert.equal(last().headers['content-length'], String(bytes.length));
    });

    test('whitespace-laden JSON is not re-serialised, and the signature header goes along as received', async () => {
      const body = '{ "id" :  "evt_1",\n\t"amount":   100 ,\r\n  "tags": [ "a" , "b" ] }\n\n';
      const logId = await capture(hmacEp, {
        body,
        headers: { 'Content-Type': 'application/json', 'X-Webhook-Signature': `sha256=${hmacHex(body)}` },
      });
      const r = await replay(logId, { targetUrl: `${target.url}/json` });
      assert.equal(r.status, 200);
      assert.equal(last().body.toString('utf8'), body);
      assert.equal(last().method, 'POST');
      assert.equal(last().headers['x-webhook-signature'], `sha256=${hmacHex(body)}`);
    });

    test('headers keep their order and case; hop-by-hop headers are not forwarded; Host and Content-Length are recomputed', async () => {
      const body = 'a=1&b=2';
      const res = await rawRequest(`${t.engine.receiverUrl}/webhook/${openEp}`, {
        headers: [
          ['X-First', '1'],
          ['Host', new URL(t.engine.receiverUrl).host],
          ['Connection', 'keep-alive, X-Private-Hop'],
          ['X-Private-Hop', 'secret'],
          ['Keep-Alive', 'timeout=5'],
          ['TE', 'trailers'],
          ['Proxy-Authorization', 'Basic Zm9vOmJhcg=='],
          ['content-TYPE', 'application/x-www-form-urlencoded'],
          ['Transfer-Encoding', 'chunked'],
          ['X-Last', 'z'],
        ],
        body,
        chunked: true,
      });
      assert.equal(res.status, 200);
      const logId = res.json().data.id as string;
      const r = await replay(logId, { targetUrl: `${target.url}/order` });
      assert.equal(r.status, 200);
      const got = last();
      assert.deepEqual(names(got.rawHeaders), [
        'X-First',
        'Host',
        'content-TYPE',
        'Content-Length',
        'X-Last',
        'X-Forwarded-For',
        'X-Forwarded-Host',
        'X-Forwarded-Proto',
        'Connection',
      ]);
      assert.equal(got.headers.host, `127.0.0.1:${target.port}`, 'Host names the target, in the original position');
      assert.equal(got.headers['content-length'], String(body.length));
      for (const hop of ['x-private-hop', 'keep-alive', 'te', 'proxy-authorization', 'transfer-encoding']) {
        assert.equal(got.headers[hop], undefined, `${hop} must not be forwarded`);
      }
      // The Connection header the target sees is our own connection's, not the sender's.
      assert.equal(got.headers.connection, 'close');
      assert.equal(got.body.toString(), body);
    });

    test("the sender's re-routing and X-Forwarded-* headers are not sent; the engine writes its own; a typed header still wins", async () => {
      const receiverHost = new URL(t.engine.receiverUrl).host;
      const res = await rawRequest(`${t.engine.receiverUrl}/webhook/${openEp}/orders`, {
        headers: [
          ['Host', receiverHost],
          ['X-Original-URL', '/admin/delete-all'],
          ['x-rewrite-url', '/admin'],
          ['X-HTTP-Method-Override', 'DELETE'],
          ['X-Method-Override', 'DELETE'],
          ['X-Forwarded-For', '6.6.6.6'],
          ['X-Forwarded-Host', 'evil.example'],
          ['X-Forwarded-Proto', 'https'],
          ['X-Forwarded-Prefix', '/admin'],
          ['Forwarded', 'for=6.6.6.6;proto=https'],
          ['X-Real-IP', '6.6.6.6'],
          ['X-Keep', 'k'],
        ],
        body: '{"a":1}',
      });
      assert.equal(res.status, 200);
      const logId = res.json().data.id as string;
      const log = (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data;
      assert.equal(log.sourceIp, '127.0.0.1');
      assert.equal(log.headers['x-original-url'], '/admin/delete-all', 'the capture keeps every header as sent');

      const r = await replay(logId, { targetUrl: `${target.url}/orders` });
      assert.equal(r.status, 200);
      assert.equal(last().method, 'POST');
      assert.equal(last().url, '/orders');
      assert.deepEqual(last().rawHeaders, [
        ['Host', `127.0.0.1:${target.port}`],
        ['X-Keep', 'k'],
        ['Content-Length', '7'],
        ['X-Forwarded-For', '127.0.0.1'],
        ['X-Forwarded-Host', receiverHost],
        ['X-Forwarded-Proto', 'http'],
        ['Connection', 'close'],
      ]);
      assert.deepEqual(r.body.data.requestHeaders, last().rawHeaders.slice(0, -1), 'recorded as sent');

      const typed = await replay(logId, {
        targetUrl: `${target.url}/orders`,
        headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': null, 'X-HTTP-Method-Override': 'PATCH' },
      });
      assert.equal(typed.status, 200);
      assert.equal(last().headers['x-forwarded-proto'], 'https');
      assert.equal(last().headers['x-forwarded-host'], undefined);
      assert.equal(last().headers['x-forwarded-for'], '127.0.0.1');
      assert.equal(last().headers['x-http-method-override'], 'PATCH');
      assert.equal(last().headers['x-original-url'], undefined);
    });

    test('method, header and body overrides apply (null removes a header, any case replaces)', async () => {
      const body = '{"original":true}';
      const logId = await capture(hmacEp, {
        body,
        headers: {
          'Content-Type': 'application/json',
          'X-Webhook-Signature': `sha256=${hmacHex(body)}`,
          'X-Keep': 'k',
        },
      });
      const r = await replay(logId, {
        targetUrl: `${target.url}/override?x=1`,
        method: 'patch',
        headers: { 'content-type': 'text/plain', 'x-webhook-signature': null, 'X-Added': 'yes' },
        body: 'edited body',
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.data.method, 'PATCH');
      const got = last();
      assert.equal(got.method, 'PATCH');
      assert.equal(got.url, '/override?x=1');
      assert.equal(got.body.toString(), 'edited body');
      assert.equal(got.headers['content-length'], '11');
      assert.equal(got.headers['x-webhook-signature'], undefined);
      assert.equal(got.headers['content-type'], 'text/plain');
      assert.equal(got.headers['x-keep'], 'k');
      assert.equal(got.headers['x-added'], 'yes');
      assert.equal(got.rawHeaders.filter(([n]) => n.toLowerCase() === 'content-type').length, 1);
      assert.ok(names(got.rawHeaders).includes('content-type'), 'a replaced header takes the name as given');
    });

    test('a base64 body override is sent as its bytes', async () => {
      const logId = await capture(openEp, { body: 'x' });
      const bytes = Buffer.from([0, 255, 1, 254, 10, 13]);
      const r = await replay(logId, { targetUrl: target.url, body: bytes.toString('base64'), bodyEncoding: 'base64' });
      assert.equal(r.status, 200);
      assert.ok(last().body.equals(bytes));
    });

    test('resign with an hmac_sha256 endpoint signs the final body with the current secret', async () => {
      const logId = await capture(hmacEp, {
        body: 'orig',
        headers: { 'x-webhook-signature': `sha256=${hmacHex('orig')}` },
      });
      const r = await replay(logId, { targetUrl: target.url, body: 'changed', resign: true });
      assert.equal(r.status, 200);
      assert.equal(last().headers['x-webhook-signature'], `sha256=${hmacHex('changed')}`);
      assert.equal(last().rawHeaders.filter(([n]) => n.toLowerCase() === 'x-webhook-signature').length, 1);
    });
  });

  describe('resign, verified on the target by the provider SDK', () => {
    test('stripe: a stale delivery fails constructEvent on the target; resigned, it passes', async () => {
      const verifying = await TargetServer.start((req) => {
        try {
          const event = stripe.webhooks.constructEvent(
            req.body,
            String(req.headers['stripe-signature']),
            STRIPE_SECRET,
          );
          return { status: 200, body: JSON.stringify({ verified: event.id }) };
        } catch (e) {
          return { status: 400, body: String((e as Error).message) };
        }
      });
      try {
        // Hookscope keeps it (a one-hour tolerance on this endpoint); Stripe's SDK allows 300 s.
        const ep = await t.endpoint({
          name: 'stripe',
          validationType: 'stripe',
          webhookSecret: STRIPE_SECRET,
          toleranceSeconds: 3600,
        });
        const payload = JSON.stringify(
          { id: 'evt_resign', object: 'event', type: 'payment_intent.succeeded' },
          null,
          1,
        );
        const stale = Math.floor(Date.now() / 1000) - 1200;
        const header = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET, timestamp: stale });
        const delivered = await t.deliver(`/webhook/${ep}`, {
          body: payload,
          headers: { 'Stripe-Signature': header, 'content-type': 'application/json' },
        });
        assert.equal(delivered.status, 200);
        const logId = delivered.body.data.id as string;

        const plain = await replay(logId, { targetUrl: verifying.url });
        assert.equal(plain.status, 200, 'the target refusing is a result, not our error');
        assert.equal(plain.body.data.status, 400);
        assert.match(plain.body.data.responseBody, /tolerance/i);
        assert.equal(verifying.received[0]!.headers['stripe-signature'], header);

        const resigned = await replay(logId, { targetUrl: verifying.url, resign: true });
        assert.equal(resigned.body.data.status, 200, resigned.body.data.responseBody);
        assert.deepEqual(JSON.parse(resigned.body.data.responseBody), { verified: 'evt_resign' });
        const sent = verifying.received[1]!;
        assert.notEqual(sent.headers['stripe-signature'], header);
        assert.equal(sent.rawHeaders.filter(([n]) => n.toLowerCase() === 'stripe-signature').length, 1);
        assert.equal(sent.body.toString(), payload);
      } finally {
        await verifying.close();
      }
    });

    test('standard_webhooks: resigned with a fresh timestamp, Webhook.verify accepts it', async () => {
      const secret = `whsec_${Buffer.from('replay-standard-webhooks-secret-32b').toString('base64')}`;
      const wh = new Webhook(secret);
      const verifying = await TargetServer.start((req) => {
        try {
          const h = req.headers;
          wh.verify(req.body.toString('utf8'), {
            'webhook-id': String(h['webhook-id']),
            'webhook-timestamp': String(h['webhook-timestamp']),
            'webhook-signature': String(h['webhook-signature']),
          });
          return { status: 204 };
        } catch (e) {
          return { status: 400, body: (e as Error).message };
        }
      });
      try {
        const ep = await t.endpoint({ name: 'sw', validationType: 'standard_webhooks', webhookSecret: secret });
        const payload = '{"type":"invoice.paid", "data": {"id": 1}}';
        const msgId = 'msg_replay_1';
        const stale = new Date(Date.now() - 20 * 60_000);
        const delivered = await t.deliver(`/webhook/${ep}`, {
          body: payload,
          headers: {
            'webhook-id': msgId,
            'webhook-timestamp': String(Math.floor(stale.getTime() / 1000)),
            'webhook-signature': wh.sign(msgId, stale, payload),
            'content-type': 'application/json',
          },
        });
        const logId: string = delivered.body.data?.id ?? delivered.body.error.details.logId;
        const plain = await replay(logId, { targetUrl: verifying.url });
        assert.equal(plain.body.data.status, 400, 'the stale original fails the SDK timestamp check');
        const resigned = await replay(logId, { targetUrl: verifying.url, resign: true });
        assert.equal(resigned.body.data.status, 204, resigned.body.data.responseBody);
        assert.equal(verifying.received[1]!.headers['webhook-id'], msgId, 'the message id is kept');
      } finally {
        await verifying.close();
      }
    });
  });

  describe('target failures', () => {
    test('a closed port is 502 TARGET_UNREACHABLE naming the target, and recorded in history', async () => {
      const logId = await capture(openEp, { body: 'down' });
      const port = (await closedPort()).port;
      const url = `http://127.0.0.1:${port}/hook`;
      const r = await replay(logId, { targetUrl: url });
      assert.equal(r.status, 502);
      assert.equal(r.body.error.code, 'TARGET_UNREACHABLE');
      assert.ok(r.body.error.message.includes(url), r.body.error.message);
      const replayId = r.body.error.details.replayId as string;
      assert.match(replayId, /^rp_/);
      const h = await t.api('GET', `/api/replay/${logId}/history`);
      assert.equal(h.body.data.total, 1);
      assert.equal(h.body.data.history[0].id, replayId);
      assert.equal(h.body.data.history[0].status, null);
      assert.equal(h.body.data.history[0].error.code, 'TARGET_UNREACHABLE');
    });

    test('a target that never answers is 504 TARGET_TIMEOUT after timeoutMs, recorded in history', async () => {
      const silent = await TargetServer.start(() => ({ hang: true }));
      try {
        const logId = await capture(openEp, { body: 'slow' });
        const r = await replay(logId, { targetUrl: silent.url, timeoutMs: 150 });
        assert.equal(r.status, 504);
        assert.equal(r.body.error.code, 'TARGET_TIMEOUT');
        assert.ok(r.body.error.message.includes(silent.url), r.body.error.message);
        const one = await t.api('GET', `/api/replay/${logId}/replays/${r.body.error.details.replayId}`);
        assert.equal(one.status, 200);
        assert.equal(one.body.data.error.code, 'TARGET_TIMEOUT');
        assert.equal(one.body.data.status, null);
      } finally {
        await silent.close();
      }
    });

    test("the target's 500 is answered 200 with status 500 and its body and headers", async () => {
      const failing = await TargetServer.start(() => ({
        status: 500,
        headers: { 'X-Trace': 'abc' },
        body: 'handler crashed',
      }));
      try {
        const logId = await capture(openEp, { body: 'boom' });
        const r = await replay(logId, { targetUrl: failing.url });
        assert.equal(r.status, 200);
        assert.equal(r.body.data.status, 500);
        assert.equal(r.body.data.responseBody, 'handler crashed');
        assert.equal(r.body.data.bodyEncoding, 'utf8');
        assert.equal(r.body.data.truncated, false);
        assert.equal(r.body.data.responseHeaders['x-trace'], 'abc');
        assert.equal(typeof r.body.data.responseTime, 'number');
        assert.ok(Number.isInteger(r.body.data.responseTime));
      } finally {
        await failing.close();
      }
    });

    test('a response body over 64 KiB is kept capped and flagged truncated', async () => {
      const big = await TargetServer.start(() => ({ status: 200, body: 'x'.repeat(100_000) }));
      try {
        const logId = await capture(openEp, { body: 'big' });
        const r = await replay(logId, { targetUrl: big.url });
        assert.equal(r.body.data.truncated, true);
        assert.equal(r.body.data.responseBody.length, 64 * 1024);
      } finally {
        await big.close();
      }
    });
  });

  describe('validation', () => {
    test('bad targetUrl, timeoutMs, method, headers and body are 400s naming the field', async () => {
      const logId = await capture(openEp, { body: 'v' });
      const cases: [unknown, string][] = [
        [{}, 'targetUrl'],
        [{ targetUrl: '/relative/path' }, 'targetUrl'],
        [{ targetUrl: 'ftp://127.0.0.1/x' }, 'targetUrl'],
        [{ targetUrl: 42 }, 'targetUrl'],
        [{ targetUrl: target.url, timeoutMs: 0 }, 'timeoutMs'],
        [{ targetUrl: target.url, timeoutMs: 120_001 }, 'timeoutMs'],
        [{ targetUrl: target.url, timeoutMs: '100' }, 'timeoutMs'],
        [{ targetUrl: target.url, timeoutMs: 1.5 }, 'timeoutMs'],
        [{ targetUrl: target.url, method: 'FETCH' }, 'method'],
        [{ targetUrl: target.url, method: 7 }, 'method'],
        [{ targetUrl: target.url, headers: { 'Bad Name': 'x' } }, 'headers'],
        [{ targetUrl: target.url, headers: { 'Content-Length': '5' } }, 'Content-Length'],
        [{ targetUrl: target.url, headers: { 'X-A': 'a\r\nX-B: b' } }, 'X-A'],
        [{ targetUrl: target.url, headers: ['x'] }, 'headers'],
        [{ targetUrl: target.url, body: 'not base64!', bodyEncoding: 'base64' }, 'body'],
        [{ targetUrl: target.url, bodyEncoding: 'latin1' }, 'bodyEncoding'],
        [{ targetUrl: target.url, resign: 'yes' }, 'resign'],
      ];
      const before = target.received.length;
      for (const [body, field] of cases) {
        const r = await replay(logId, body);
        assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.status}`);
        assert.equal(r.body.error.code, 'VALIDATION_ERROR');
        assert.ok(
          r.body.error.message.includes(field),
          `${JSON.stringify(body)}: "${r.body.error.message}" should name ${field}`,
        );
      }
      assert.equal(target.received.length, before, 'nothing is sent for invalid input');
      const h = await t.api('GET', `/api/replay/${logId}/history`);
      assert.equal(h.body.data.total, 0);
    });

    test('an unknown log is 404 for replay, the alias, history and diff', async () => {
      assert.equal((await replay('log_nope', { targetUrl: target.url })).status, 404);
      assert.equal(
        (await t.api('POST', '/api/webhooks/log_nope/replay', { body: { targetUrl: target.url } })).status,
        404,
      );
      assert.equal((await t.api('GET', '/api/replay/log_nope/history')).status, 404);
      assert.equal((await t.api('GET', '/api/replay/log_nope/diff?a=rp_1&b=rp_2')).status, 404);
    });
  });

  describe('history, alias, isolation, diff', () => {
    test('history is newest first with the entry shape; the alias route replays too', async () => {
      const logId = await capture(openEp, { body: 'history' });
      const ids: string[] = [];
      for (const path of ['/one', '/two'])
        ids.push((await replay(logId, { targetUrl: `${target.url}${path}` })).body.data.id);
      const alias = await t.api('POST', `/api/webhooks/${logId}/replay`, {
        body: { targetUrl: `${target.url}/three` },
      });
      assert.equal(alias.status, 200);
      ids.push(alias.body.data.id);
      const h = await t.api('GET', `/api/replay/${logId}/history`);
      assert.equal(h.status, 200);
      assert.equal(h.body.data.total, 3);
      assert.deepEqual(
        h.body.data.history.map((e: any) => e.id),
        [...ids].reverse(),
      );
      const e = h.body.data.history[0];
      assert.deepEqual(
        Object.keys(e).sort(),
        [
          'createdAt',
          'edited',
          'endpointId',
          'error',
          'id',
          'logId',
          'method',
          'responseTime',
          'status',
          'targetUrl',
          'trigger',
        ].sort(),
      );
      assert.equal(e.logId, logId);
      assert.equal(e.targetUrl, `${target.url}/three`);
      assert.equal(e.trigger, 'manual');
      assert.equal(e.error, null);
      assert.ok(!Number.isNaN(Date.parse(e.createdAt)));
      const page = await t.api('GET', `/api/replay/${logId}/history?limit=1&offset=1`);
      assert.deepEqual(
        page.body.data.history.map((x: any) => x.id),
        [ids[1]],
      );
      assert.equal((await t.api('GET', `/api/replay/${logId}/history?limit=0`)).status, 400);
    });

    test("another account's log is 404 for replay, history and a replay of it", async () => {
      const logId = await capture(openEp, { body: 'mine' });
      const mine = await replay(logId, { targetUrl: target.url });
      const other = await t.engine.issueToken('someone-else');
      const sent = target.received.length;
      const r = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: target.url }, token: other });
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'LOG_NOT_FOUND');
      assert.equal(
        (await t.api('POST', `/api/webhooks/${logId}/replay`, { body: { targetUrl: target.url }, token: other }))
          .status,
        404,
      );
      assert.equal((await t.api('GET', `/api/replay/${logId}/history`, { token: other })).status, 404);
      assert.equal(
        (await t.api('GET', `/api/replay/${logId}/replays/${mine.body.data.id}`, { token: other })).status,
        404,
      );
      assert.equal(target.received.length, sent);
    });

    test('diff shows status, header and pretty-printed JSON body differences of two replays', async () => {
      let version = 0;
      const changing = await TargetServer.start((): Reply => {
        version += 1;
        return version === 1
          ? {
              status: 200,
              headers: { 'X-Version': '1', 'Content-Type': 'application/json' },
              body: '{"ok":true,"count":1,"same":"s"}',
            }
          : { status: 422, headers: { 'X-Version': '2', 'X-New': 'n' }, body: '{"ok":false,"count":1,"same":"s"}' };
      });
      try {
        const logId = await capture(openEp, { body: 'diff me' });
        const first = (await replay(logId, { targetUrl: changing.url })).body.data;
        const second = (await replay(logId, { targetUrl: changing.url })).body.data;
        const a = first.id as string;
        const b = second.id as string;
        const d = await t.api('GET', `/api/replay/${logId}/diff?a=${a}&b=${b}`);
        assert.equal(d.status, 200, JSON.stringify(d.body));
        const diff = d.body.data;
        assert.deepEqual(
          [diff.a.createdAt, diff.b.createdAt],
          [first.createdAt, second.createdAt],
          'each side dated as its replay answered (ISO 8601)',
        );
        assert.match(diff.a.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.equal(diff.identical, false);
        assert.deepEqual(diff.status, { a: 200, b: 422, changed: true });
        assert.deepEqual(diff.headers.added, [{ name: 'x-new', value: 'n' }]);
        assert.deepEqual(diff.headers.removed, [{ name: 'content-type', value: 'application/json' }]);
        assert.ok(diff.headers.changed.some((c: any) => c.name === 'x-version' && c.a === '1' && c.b === '2'));
        assert.equal(diff.body.format, 'json');
        assert.equal(diff.body.changed, true);
        assert.match(diff.body.patch, /^-\s+"ok": true,$/m);
        assert.match(diff.body.patch, /^\+\s+"ok": false,$/m);
        assert.doesNotMatch(diff.body.patch, /^[-+]\s+"count"/m, 'unchanged members are context, not changes');
        assert.ok(diff.body.changes.some((c: any) => c.removed && c.value.includes('"ok": true')));

        const same = await t.api('GET', `/api/replay/${logId}/diff?a=${a}&b=${a}`);
        assert.equal(same.body.data.identical, true);

        const missing = await t.api('GET', `/api/replay/${logId}/diff?a=${a}`);
        assert.equal(missing.status, 400);
        assert.ok(missing.body.error.message.includes('"b"'), missing.body.error.message);
        assert.ok((await t.api('GET', `/api/replay/${logId}/diff?b=${b}`)).body.error.message.includes('"a"'));

        const otherLog = await capture(openEp, { body: 'other' });
        const foreign = (await replay(otherLog, { targetUrl: changing.url })).body.data.id as string;
        const nf = await t.api('GET', `/api/replay/${logId}/diff?a=${a}&b=${foreign}`);
        assert.equal(nf.status, 404);
        assert.equal(nf.body.error.code, 'REPLAY_NOT_FOUND');
        assert.equal((await t.api('GET', `/api/replay/${logId}/replays/${foreign}`)).status, 404);
      } finally {
        await changing.close();
      }
    });

    test('each manual replay publishes replay.completed', async () => {
      const logId = await capture(openEp, { body: 'event' });
      const { accountIdFor, LOCAL_ACCOUNT } = await import('../../server/auth/account-id.ts');
      const seen: any[] = [];
      const unsubscribe = t.engine.events.subscribe(accountIdFor(LOCAL_ACCOUNT), (e) => {
        if (e.type === 'replay.completed') seen.push(e.data);
      });
      try {
        const r = await replay(logId, { targetUrl: target.url });
        assert.deepEqual(
          seen.map((d) => d.id),
          [r.body.data.id],
        );
        assert.equal(seen[0].trigger, 'manual');
      } finally {
        unsubscribe();
      }
    });
  });
});
