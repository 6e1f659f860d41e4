import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { startCaptureServer, type CaptureServer } from '../helpers/capture-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

describe('diagnose', () => {
  let t: TestEngine;
  let target: CaptureServer;
  let ep: string;
  let logId: string;
  const body = '{"event":"order.paid","id":42}';

  const diagnose = (id: string, qs = '', token?: string) => t.api('GET', `/api/cli/diagnose/${id}${qs}`, { token });

  before(async () => {
    t = await startTestEngine();
    target = await startCaptureServer();
    ep = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: 'first-secret-123' });
    const signature = createHmac('sha256', 'first-secret-123').update(body).digest('hex');
    const r = await t.deliver(`/webhook/${ep}/orders`, {
      body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
    });
    assert.equal(r.status, 200);
    logId = r.body.data.id;
  });
  after(async () => {
    await target.close();
    await t.stop();
  });

  test('with a target up: DNS, connect and HTTP succeed with the status; reconstruction aims at the target', async () => {
    const url = `${target.url}/hook?from=diagnose`;
    const r = await diagnose(logId, `?target=${encodeURIComponent(url)}`);
    assert.equal(r.status, 200);
    const d = r.body.data;
    assert.equal(d.log.id, logId);
    assert.equal('body' in d.log, false, 'the log is its summary');
    const listed = (await t.api('GET', `/api/webhooks/logs?endpointId=${ep}`)).body.data.logs;
    assert.deepEqual(d.log, listed[0], 'exactly as the list shows it (receivedAt an ISO string)');
    const dest = d.destination;
    assert.equal(dest.url, url);
    assert.equal(dest.source, 'query');
    assert.equal(dest.dns.ok, true);
    assert.deepEqual(dest.dns.addresses, ['127.0.0.1']);
    assert.equal(typeof dest.dns.ms, 'number');
    assert.equal(dest.connect.ok, true);
    assert.equal(dest.connect.error, null);
    assert.equal(dest.http.ok, true);
    assert.equal(dest.http.status, 200);
    assert.equal(dest.http.method, 'HEAD');
    assert.equal(target.requests.at(-1)?.method, 'HEAD', 'a HEAD, never the delivery itself');
    assert.ok(d.reconstruction.curl.includes(`'${url}'`));
    assert.ok(
      d.reconstruction.http.startsWith(`POST /hook?from=diagnose HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n`),
    );
    assert.ok(d.reconstruction.http.endsWith(`\r\n\r\n${body}`));
    assert.deepEqual(d.recentReplays, []);
  });

  test('with a closed port: connect fails with a clear error and HTTP is skipped', async () => {
    const port = (await closedPort()).port;
    const d = (await diagnose(logId, `?target=${encodeURIComponent(`http://127.0.0.1:${port}/hook`)}`)).body.data;
    assert.equal(d.destination.dns.ok, true);
    assert.equal(d.destination.connect.ok, false);
    assert.match(d.destination.connect.error, /refused/i);
    assert.match(d.destination.connect.error, /ECONNREFUSED/);
    assert.ok(d.destination.connect.error.includes(String(port)));
    assert.equal(d.destination.http.ok, false);
    assert.match(d.destination.http.error, /skipped/);
  });

  test('without a target it checks the forward URL, and with neither there is no destination', async () => {
    const none = (await diagnose(logId)).body.data;
    assert.equal(none.destination, null);
    assert.ok(
      none.reconstruction.curl.includes(`${t.engine.receiverUrl}/webhook/${ep}/orders`),
      'defaults to the receiver URL',
    );
    await t.api('PATCH', `/api/endpoints/${ep}`, { body: { forwardUrl: `${target.url}/forwarded` } });
    const fwd = (await diagnose(logId)).body.data;
    assert.equal(fwd.destination.source, 'forward');
    assert.equal(fwd.destination.url, `${target.url}/forwarded`);
    assert.equal(fwd.destination.http.status, 200);
    await t.api('PATCH', `/api/endpoints/${ep}`, { body: { forwardUrl: null } });
  });

  test('verification is recomputed now: after a secret rotation the previous secret is the one that matches', async () => {
    const before = (await diagnose(logId)).body.data.verification;
    assert.equal(before.stored.result, 'valid');
    assert.equal(before.now.result, 'valid');
    assert.equal(before.now.matchedSecret, 'current');
    assert.equal(
      (await t.api('POST', `/api/endpoints/${ep}/regenerate-secret`, { body: { webhookSecret: 'second-secret-456' } }))
        .status,
      200,
    );
    const after = (await diagnose(logId)).body.data.verification;
    assert.equal(after.stored.result, 'valid');
    assert.equal(after.stored.matchedSecret, 'current');
    assert.equal(after.now.result, 'valid');
    assert.equal(after.now.matchedSecret, 'previous');
    assert.ok(!Number.isNaN(Date.parse(after.now.checkedAt)));
  });

  test("a bad target is 400 naming target; another account's log is 404", async () => {
    for (const bad of ['not a url', 'ftp://example.test/', 'http://']) {
      const r = await diagnose(logId, `?target=${encodeURIComponent(bad)}`);
      assert.equal(r.status, 400, bad);
      assert.ok(r.body.error.message.includes('target'), r.body.error.message);
    }
    const other = await t.engine.issueToken('teammate');
    const r = await diagnose(logId, '', other);
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'LOG_NOT_FOUND');
    assert.equal((await diagnose('log_missing')).status, 404);
  });
});
