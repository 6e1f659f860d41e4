import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { TargetServer, waitUntil } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'forward-hmac-secret';
const sig = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
// Small retry delays so an outage is retried within the test, never asserted on time.
const FAST = { forward: { initialBackoffMs: 20, maxBackoffMs: 100, timeoutMs: 5_000 } };

describe('forwarding', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(FAST);
  });
  after(() => t.stop());

  const forwardStatus = async (endpointId: string) =>
    (await t.api('GET', `/api/endpoints/${endpointId}/forward`)).body.data;
  const signedDelivery = (endpointId: string, body: string, path = '') =>
    t.deliver(`/webhook/${endpointId}${path}`, {
      body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': sig(body) },
    });

  test('accepted deliveries reach the forward target in order; failed signatures are not forwarded', async () => {
    const target = await TargetServer.start();
    try {
      const ep = await t.endpoint({
        name: 'fwd',
        validationType: 'hmac_sha256',
        webhookSecret: SECRET,
        forwardUrl: `${target.url}/local/hook`,
      });
      const bodies = Array.from({ length: 6 }, (_, i) => JSON.stringify({ seq: i, pad: ' '.repeat(i) }));
      const logIds: string[] = [];
      for (const [i, body] of bodies.entries()) {
        const r = await signedDelivery(ep, body);
        assert.equal(r.status, 200);
        logIds.push(r.body.data.id);
        if (i === 2) {
          const bad = await t.deliver(`/webhook/${ep}`, {
            body: '{"forged":true}',
            headers: { 'x-webhook-signature': sig('something else') },
          });
          assert.equal(bad.status, 400);
        }
      }
      await target.waitForCount(bodies.length);
      assert.deepEqual(
        target.received.map((r) => r.body.toString()),
        bodies,
      );
      assert.ok(target.received.every((r) => r.url === '/local/hook' && r.method === 'POST'));
      assert.equal(
        target.received[0]!.headers['x-webhook-signature'],
        sig(bodies[0]!),
        'the original signature goes along',
      );

      const h = await t.api('GET', `/api/replay/${logIds[0]}/history`);
      assert.equal(h.body.data.total, 1);
      assert.equal(h.body.data.history[0].trigger, 'forward');
      assert.equal(h.body.data.history[0].status, 200);
      assert.equal(h.body.data.history[0].targetUrl, `${target.url}/local/hook`);

      const s = await waitUntil(async () => {
        const st = await forwardStatus(ep);
        return st.state === 'idle' && st.pending === 0 && st;
      }, 'the queue to drain');
      assert.equal(s.forwardUrl, `${target.url}/local/hook`);
      assert.equal(s.attempts, 0);
      assert.ok(s.lastDeliveredAt && !Number.isNaN(Date.parse(s.lastDeliveredAt)));
    } finally {
      await target.close();
    }
  });

  test("a delivery's sub-path and query are appended to the forwardUrl", async () => {
    const target = await TargetServer.start();
    try {
      const ep = await t.endpoint({ name: 'paths', validationType: 'none', forwardUrl: `${target.url}/base/` });
      await t.deliver(`/webhook/${ep}/github/events?x=1&y=two`, { method: 'PUT', body: 'p' });
      await target.waitForCount(1);
      assert.equal(target.received[0]!.url, '/base/github/events?x=1&y=two');
      assert.equal(target.received[0]!.method, 'PUT');
    } finally {
      await target.close();
    }
  });

  test('a 4xx is recorded and the item dropped (not retried); the next one goes out', async () => {
    const target = await TargetServer.start((_req, i) =>
      i === 0 ? { status: 422, body: 'unprocessable' } : { status: 200 },
    );
    try {
      const ep = await t.endpoint({ name: 'refused', validationType: 'none', forwardUrl: target.url });
      const first = (await t.deliver(`/webhook/${ep}`, { body: 'first' })).body.data.id as string;
      await t.deliver(`/webhook/${ep}`, { body: 'second' });
      await target.waitForCount(2);
      assert.deepEqual(
        target.received.map((r) => r.body.toString()),
        ['first', 'second'],
      );
      const h = await t.api('GET', `/api/replay/${first}/history`);
      assert.equal(h.body.data.total, 1, 'a refused delivery is tried once');
      assert.equal(h.body.data.history[0].status, 422);
      const s = await waitUntil(async () => {
        const st = await forwardStatus(ep);
        return st.pending === 0 && st.state === 'idle' && st;
      }, 'the queue to drain');
      assert.equal(s.lastError.code, 'TARGET_REJECTED');
    } finally {
      await target.close();
    }
  });

  test('a 5xx is retried until the target accepts; every attempt is in history', async () => {
    const target = await TargetServer.start((_req, i) => (i < 2 ? { status: 503 } : { status: 204 }));
    try {
      const ep = await t.endpoint({ name: 'flaky', validationType: 'none', forwardUrl: target.url });
      const logId = (await t.deliver(`/webhook/${ep}`, { body: 'retry me' })).body.data.id as string;
      await target.waitForCount(3);
      const h = await waitUntil(async () => {
        const r = await t.api('GET', `/api/replay/${logId}/history`);
        return r.body.data.history.length === 3 && r.body.data;
      }, 'three attempts in history');
      assert.deepEqual(
        h.history.map((e: any) => e.status),
        [204, 503, 503],
      );
      assert.ok(h.history.every((e: any) => e.trigger === 'forward'));
    } finally {
      await target.close();
    }
  });

  test('clearing forwardUrl drops the pending queue and stops forwarding; a new forwardUrl applies to new deliveries', async () => {
    const down = (await closedPort()).url;
    const ep = await t.endpoint({ name: 'switch', validationType: 'none', forwardUrl: down });
    await t.deliver(`/webhook/${ep}`, { body: 'queued-1' });
    await t.deliver(`/webhook/${ep}`, { body: 'queued-2' });
    await waitUntil(async () => {
      const s = await forwardStatus(ep);
      return s.state === 'retrying' && s.pending === 2;
    }, 'the queue to hold both while the target is down');

    const cleared = await t.api('PATCH', `/api/endpoints/${ep}`, { body: { forwardUrl: null } });
    assert.equal(cleared.status, 200);
    let s = await forwardStatus(ep);
    assert.equal(s.state, 'disabled');
    assert.equal(s.pending, 0);
    assert.equal(s.forwardUrl, null);
    await t.deliver(`/webhook/${ep}`, { body: 'not forwarded' });
    assert.equal((await forwardStatus(ep)).pending, 0);

    const target = await TargetServer.start();
    try {
      await t.api('PATCH', `/api/endpoints/${ep}`, { body: { forwardUrl: target.url } });
      await t.deliver(`/webhook/${ep}`, { body: 'after-switch' });
      await target.waitForCount(1);
      s = await waitUntil(async () => {
        const st = await forwardStatus(ep);
        return st.pending === 0 && st.state === 'idle' && st;
      }, 'the queue to drain');
      assert.deepEqual(
        target.received.map((r) => r.body.toString()),
        ['after-switch'],
      );
    } finally {
      await target.close();
    }
  });

  test('forward status: disabled without forwardUrl; 404 for unknown and for other accounts', async () => {
    const ep = await t.endpoint({ name: 'plain', validationType: 'none' });
    const s = await forwardStatus(ep);
    assert.deepEqual(
      {
        state: s.state,
        pending: s.pending,
        forwardUrl: s.forwardUrl,
        nextAttemptAt: s.nextAttemptAt,
        lastError: s.lastError,
        attempts: s.attempts,
        lastDeliveredAt: s.lastDeliveredAt,
      },
      {
        state: 'disabled',
        pending: 0,
        forwardUrl: null,
        nextAttemptAt: null,
        lastError: null,
        attempts: 0,
        lastDeliveredAt: null,
      },
    );
    assert.equal((await t.api('GET', '/api/endpoints/ep_missing/forward')).status, 404);
    const other = await t.engine.issueToken('forward-other');
    const r = await t.api('GET', `/api/endpoints/${ep}/forward`, { token: other });
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'ENDPOINT_NOT_FOUND');
  });

  test('deleting an endpoint removes its queue and history with its logs', async () => {
    const down = (await closedPort()).url;
    const ep = await t.endpoint({ name: 'doomed', validationType: 'none', forwardUrl: down });
    const logId = (await t.deliver(`/webhook/${ep}`, { body: 'x' })).body.data.id as string;
    await waitUntil(
      async () => (await t.api('GET', `/api/replay/${logId}/history`)).body.data?.total >= 1,
      'a failed attempt',
    );
    const d = await t.api('DELETE', `/api/endpoints/${ep}`);
    assert.equal(d.status, 200);
    assert.equal((await t.api('GET', `/api/endpoints/${ep}/forward`)).status, 404);
    assert.equal((await t.api('GET', `/api/replay/${logId}/history`)).status, 404);
  });
});

describe('forwarding: the headers a sender must not choose', () => {
  const PUBLIC_HOST = 'hooks.example.test';
  let t: TestEngine;
  before(async () => {
    // The public base a TLS-terminating front (the tunnel, a team server's proxy) serves.
    t = await startTestEngine({ ...FAST, publicBaseUrl: `https://${PUBLIC_HOST}` });
  });
  after(() => t.stop());

  // Every header a sender could use to re-route the request or to pose as a proxy, in mixed case.
  const SENDER_HEADERS: [string, string][] = [
    ['X-Original-URL', '/admin/delete-all'],
    ['X-REWRITE-URL', '/admin/delete-all'],
    ['x-http-method-override', 'DELETE'],
    ['X-Method-Override', 'DELETE'],
    ['X-Forwarded-For', '6.6.6.6'],
    ['X-Forwarded-Host', 'evil.example'],
    ['x-forwarded-proto', 'https'],
    ['X-Forwarded-Port', '443'],
    ['Forwarded', 'for=6.6.6.6;host=evil.example;proto=https'],
    ['X-Real-IP', '6.6.6.6'],
  ];

  test('the forward target gets the engine’s X-Forwarded-For/-Host/-Proto and none of the sender’s; a replay sends the same', async () => {
    const target = await TargetServer.start();
    try {
      const ep = await t.endpoint({ name: 'headers', validationType: 'none', forwardUrl: `${target.url}/hook` });
      const localHost = new URL(t.engine.receiverUrl).host;
      // Through the public URL (the Host the sender used names it), then straight to the receiver.
      const ids: string[] = [];
      for (const host of [PUBLIC_HOST, localHost]) {
        const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/events`, {
          headers: [['Host', host], ...SENDER_HEADERS, ['Content-Type', 'application/json']],
          body: `{"via":"${host}"}`,
        });
        assert.equal(r.status, 200, r.body.toString());
        ids.push(r.json().data.id as string);
      }
      await target.waitForCount(2);
      const sent = (host: string, proto: string): [string, string][] => [
        ['Host', `127.0.0.1:${target.port}`],
        ['Content-Type', 'application/json'],
        ['Content-Length', String(`{"via":"${host}"}`.length)],
        ['X-Forwarded-For', '127.0.0.1'],
        ['X-Forwarded-Host', host],
        ['X-Forwarded-Proto', proto],
        ['Connection', 'close'],
      ];
      assert.deepEqual(
        target.received.map((r) => [r.method, r.url, r.rawHeaders]),
        [
          ['POST', '/hook/events', sent(PUBLIC_HOST, 'https')],
          ['POST', '/hook/events', sent(localHost, 'http')],
        ],
      );

      // A manual replay of the public delivery says the same about where it came from.
      const r = await t.api('POST', `/api/replay/${ids[0]}`, { body: { targetUrl: `${target.url}/again` } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await target.waitForCount(3);
      assert.deepEqual(target.received[2]!.rawHeaders, sent(PUBLIC_HOST, 'https'));
    } finally {
      await target.close();
    }
  });
});
