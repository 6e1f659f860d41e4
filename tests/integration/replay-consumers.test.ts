import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

// Replay results feed three other features through ReplayReader: remediation
// (failed replays are eligible and explained), diagnose (recent replays and the
// last target) and metrics (replay counts and percentiles). This proves the wiring.
describe('features that read replay results', () => {
  let t: TestEngine;
  let target: TargetServer;
  let ep: string;
  let logId: string;
  before(async () => {
    t = await startTestEngine();
    target = await TargetServer.start((_req, i) => ({
      status: i === 0 ? 200 : 401,
      body: i === 0 ? 'ok' : 'bad signature',
    }));
    ep = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: 'replay-consumers-secret' });
    // Unsigned: stored as failed, which is fine, replays do not care.
    const r = await t.deliver(`/webhook/${ep}`, { body: '{"n":1}', headers: { 'content-type': 'application/json' } });
    logId = r.body.error.details.logId;
  });
  after(async () => {
    await target.close();
    await t.stop();
  });

  test('remediation explains a failed replay: unreachable, then refused signature', async () => {
    const dead = (await closedPort()).port;
    const unreachable = await t.api('POST', `/api/replay/${logId}`, {
      body: { targetUrl: `http://127.0.0.1:${dead}/hook` },
    });
    assert.equal(unreachable.status, 502);
    const analysis = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`, { body: { refresh: true } });
    assert.equal(analysis.status, 200, JSON.stringify(analysis.body));
    const codes = analysis.body.data.causes.map((c: { code: string }) => c.code);
    assert.ok(codes.includes('target_unreachable'), codes.join(','));
    const cause = analysis.body.data.causes.find((c: { code: string }) => c.code === 'target_unreachable');
    assert.match(JSON.stringify(cause.evidence), new RegExp(String(dead)));

    assert.equal(
      (await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/ok` } })).body.data.status,
      200,
    );
    assert.equal(
      (await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/hook` } })).body.data.status,
      401,
    );
    const again = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`, { body: { refresh: true } });
    const again2 = again.body.data.causes.map((c: { code: string }) => c.code);
    assert.ok(again2.includes('target_rejected_signature'), again2.join(','));
  });

  test('a successful log becomes eligible for analysis once a replay of it failed', async () => {
    const ok = await t.endpoint({ name: 'open', validationType: 'none' });
    const id = (await t.deliver(`/webhook/${ok}`, { body: 'x' })).body.data.id;
    assert.equal((await t.api('POST', `/api/webhooks/logs/${id}/analyze`)).status, 409);
    const dead = (await closedPort()).port;
    await t.api('POST', `/api/replay/${id}`, { body: { targetUrl: `http://127.0.0.1:${dead}/` } });
    assert.equal((await t.api('POST', `/api/webhooks/logs/${id}/analyze`)).status, 200);
  });

  test('diagnose lists recent replays and checks the last replay target when no target is given', async () => {
    const r = await t.api('GET', `/api/cli/diagnose/${logId}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d = r.body.data;
    assert.ok(d.recentReplays.length >= 3);
    assert.equal(d.destination.source, 'lastReplay');
    assert.equal(d.destination.url, `${target.url}/hook`);
    assert.equal(d.destination.connect.ok, true);
  });

  test('metrics count the replays exactly, by trigger, with percentiles', async () => {
    const h = await t.api('GET', `/api/replay/${logId}/history`);
    const all = (await t.api('GET', '/api/observability/metrics?window=1h')).body.data.replays;
    // 4 manual replays in this file: 1 unreachable (log 1), 200, 401 (log 1), 1 unreachable (log 2).
    assert.equal(h.body.data.total, 3);
    assert.equal(all.total, 4);
    assert.equal(all.byTrigger.manual, 4);
    assert.equal(all.byTrigger.forward, 0);
    assert.equal(all.succeeded, 1);
    assert.equal(all.failed, 3);
    assert.equal(typeof all.p50Ms, 'number');
    assert.ok(all.p95Ms >= all.p50Ms);
    const other = await t.engine.issueToken('someone-else');
    const theirs = (await t.api('GET', '/api/observability/metrics?window=1h', { token: other })).body.data.replays;
    assert.equal(theirs.total, 0);
  });
});
