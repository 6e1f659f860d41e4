import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { SHARE_PAGE_CSP } from '../../server/share/share-html.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-request.ts';
import { postHead, slowSender } from '../helpers/slow-sender.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * The receiver's refusals and the share link's errors, header by header: they are
 * written by the one envelope writer (server/http/envelope.ts), and a sender or a
 * browser sees exactly the status, headers and envelope it saw before.
 */

/** The headers an answer carries, without the ones Node adds to every answer. */
function own(r: RawResponse): Record<string, unknown> {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = r.headers;
  return rest;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const SHARE_HEADERS = {
  'content-security-policy': SHARE_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  vary: 'Accept',
};
const HOUR = 3_600_000;

describe('error answers: one envelope, the same headers', () => {
  const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(
      {
        maxBodyBytes: 100,
        receiver: {
          ...DEFAULT_CONFIG.receiver,
          rateLimit: { perSecond: 1, burst: 1 },
          maxInFlightBodyBytes: 50,
        },
      },
      { clock },
    );
  });
  after(() => t.stop());

  const post = (path: string, body: string): Promise<RawResponse> =>
    rawRequest(t.engine.receiverUrl + path, { method: 'POST', body });

  test('413 over the size limit: the envelope naming the stored log, no extra header', async () => {
    const ep = await t.endpoint({ name: 'big', validationType: 'none' });
    const r = await post(`/webhook/${ep}`, 'x'.repeat(101));
    const logId = r.json().error.details.logId;
    assert.match(logId, /^log_/);
    assert.equal(r.status, 413);
    const body = {
      success: false,
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The body is larger than this endpoint accepts (100 bytes).',
        details: { logId, reason: 'payload_too_large' },
      },
    };
    assert.deepEqual(r.json(), body);
    assert.deepEqual(own(r), { ...JSON_HEADERS, 'content-length': String(JSON.stringify(body).length) });
  });

  test('429 over the rate: Retry-After and details.retryAfterSeconds, the same number', async () => {
    const ep = await t.endpoint({ name: 'rate', validationType: 'none' });
    assert.equal((await post(`/webhook/${ep}`, 'a')).status, 200);
    const r = await post(`/webhook/${ep}`, 'b');
    assert.equal(r.status, 429);
    const body = {
      success: false,
      error: {
        code: 'RATE_LIMITED',
        message: 'This endpoint receives at most 1 deliveries per second (bursts of 1); retry in 1 s.',
        details: { retryAfterSeconds: 1 },
      },
    };
    assert.deepEqual(r.json(), body);
    assert.deepEqual(own(r), {
      ...JSON_HEADERS,
      'content-length': String(JSON.stringify(body).length),
      'retry-after': '1',
    });
  });

  test('503 over the in-memory body budget: Retry-After: 1 and the envelope naming the stored log', async () => {
    const ep = await t.endpoint({ name: 'busy', validationType: 'none' });
    const hold = await t.endpoint({ name: 'hold', validationType: 'none' });
    // This one holds 40 of the 50 budget bytes while its body is still coming.
    const first = slowSender(
      t.engine.receiverUrl,
      postHead(t.engine.receiverUrl, `/webhook/${hold}`, { 'Content-Length': 40 }),
    );
    let r: RawResponse;
    try {
      first.write('a');
      // A round trip on the same listener, so the first's headers have been handled.
      assert.equal((await rawRequest(`${t.engine.receiverUrl}/healthz`, { method: 'GET' })).status, 200);
      r = await post(`/webhook/${ep}`, 'y'.repeat(60));
    } finally {
      first.close();
    }
    assert.equal(r.status, 503);
    const logId = r.json().error.details.logId;
    const body = {
      success: false,
      error: {
        code: 'SERVER_BUSY',
        message: 'The receiver is holding as many body bytes as it allows at once; retry shortly.',
        details: { logId, reason: 'server_busy' },
      },
    };
    assert.deepEqual(r.json(), body);
    assert.deepEqual(own(r), {
      ...JSON_HEADERS,
      'content-length': String(JSON.stringify(body).length),
      'retry-after': '1',
    });
  });

  test('/healthz: the success envelope', async () => {
    const r = await rawRequest(`${t.engine.receiverUrl}/healthz`, { method: 'GET' });
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), '{"success":true,"data":{"status":"ok"}}');
    assert.deepEqual(own(r), { ...JSON_HEADERS, 'content-length': '39' });
  });

  test('API errors: the same envelope writer, with no-store like every API answer', async () => {
    const r = await rawRequest(`${t.engine.apiUrl}/api/nope`, {
      method: 'GET',
      headers: [['authorization', `Bearer ${t.token}`]],
    });
    assert.equal(r.status, 404);
    const body = '{"success":false,"error":{"code":"ROUTE_NOT_FOUND","message":"No route for GET /api/nope."}}';
    assert.equal(r.body.toString(), body);
    assert.deepEqual(own(r), { ...JSON_HEADERS, 'content-length': String(body.length) });
  });

  describe('share link errors: the security headers on both the JSON envelope and the page', () => {
    let path: string;
    before(async () => {
      const ep = await t.endpoint({ name: 'shared', validationType: 'none' });
      const logId = (await post(`/webhook/${ep}`, 'shared body')).json().data.id;
      const s = await t.api('POST', `/api/webhooks/${logId}/share`, { body: { expiresInHours: 1 } });
      path = new URL(s.body.data.url).pathname;
    });
    const open = (p: string, init: { method?: string; json?: boolean } = {}): Promise<RawResponse> =>
      rawRequest(t.engine.receiverUrl + p, {
        method: init.method ?? 'GET',
        headers: init.json ? [['accept', 'application/json']] : [],
      });

    test('404 unknown link: envelope as JSON, the error page as HTML, same headers', async () => {
      const json = await open('/share/nope', { json: true });
      assert.equal(json.status, 404);
      const body =
        '{"success":false,"error":{"code":"SHARE_NOT_FOUND","message":"This share link does not exist or was revoked."}}';
      assert.equal(json.body.toString(), body);
      assert.deepEqual(own(json), {
        ...SHARE_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
      });
      const html = await open('/share/nope');
      assert.equal(html.status, 404);
      assert.match(html.body.toString(), /This share link does not exist or was revoked\./);
      assert.deepEqual(own(html), {
        ...SHARE_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(html.body.length),
      });
    });

    test('410 once expired, exactly at expiresAt', async () => {
      clock.advance(HOUR);
      const json = await open(path, { json: true });
      assert.equal(json.status, 410);
      const body = json.body.toString();
      assert.match(body, /^\{"success":false,"error":\{"code":"SHARE_EXPIRED","message":"This share link expired at /);
      assert.deepEqual(own(json), {
        ...SHARE_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
      });
      const html = await open(path);
      assert.equal(html.status, 410);
      assert.deepEqual(own(html), {
        ...SHARE_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(html.body.length),
      });
    });

    test('405 for another method: Allow on the JSON envelope and on the page', async () => {
      const json = await open('/share/nope', { method: 'POST', json: true });
      assert.equal(json.status, 405);
      const body =
        '{"success":false,"error":{"code":"METHOD_NOT_ALLOWED","message":"Share links are read-only: use GET or HEAD.","details":{"allow":"GET, HEAD"}}}';
      assert.equal(json.body.toString(), body);
      assert.deepEqual(own(json), {
        ...SHARE_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
        allow: 'GET, HEAD',
      });
      const html = await open('/share/nope', { method: 'POST' });
      assert.equal(html.status, 405);
      assert.equal(html.headers.allow, 'GET, HEAD');
      assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
    });

    test('HEAD: the headers GET would get, no body', async () => {
      const get = await open('/share/nope');
      const head = await open('/share/nope', { method: 'HEAD' });
      assert.equal(head.status, 404);
      assert.equal(head.body.length, 0);
      assert.deepEqual(own(head), own(get));
    });
  });
});
