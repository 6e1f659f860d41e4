import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { closedPort, type ClosedPort } from '../helpers/closed-port.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { openSse, type SseStream } from '../helpers/sse-stream.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'explainable-secret';

// The log detail's `explainable` is remediation's own rule (analyze's 409 NOT_ELIGIBLE
// otherwise), and a `log.updated` event (change `explainable`) says when a replay or a
// forward changed it, so the UI needs neither the rule nor the history.
describe('explainable: the log detail says whether Explain applies, and an event says when that changes', () => {
  let t: TestEngine;
  let plain: string;
  let signed: string;
  let down: ClosedPort;
  let up: TargetServer;
  let events: SseStream;

  before(async () => {
    t = await startTestEngine({ forward: { initialBackoffMs: 600_000, maxBackoffMs: 600_000, timeoutMs: 5_000 } });
    plain = await t.endpoint({ name: 'plain', validationType: 'none' });
    signed = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: SECRET });
    down = await closedPort();
    up = await TargetServer.start();
    events = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    await events.waitForText(/retry: \d+/);
  });
  after(async () => {
    events.close();
    await up.close();
    await down.release();
    await t.stop();
  });

  const detail = async (logId: string) => (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data;
  const analyzeStatus = async (logId: string) => (await t.api('POST', `/api/webhooks/logs/${logId}/analyze`)).status;
  const delivered = async (endpointId: string): Promise<string> => {
    const r = await t.deliver(`/webhook/${endpointId}`, { body: '{"ok":true}' });
    assert.equal(r.status, 200);
    return r.body.data.id as string;
  };
  const replay = (logId: string, targetUrl: string) => t.api('POST', `/api/replay/${logId}`, { body: { targetUrl } });
  /** Every `log.updated` about the log with change `explainable`, as the stream carried it. */
  const explainableEvents = (logId: string): unknown[] =>
    events
      .events()
      .filter((e) => e.event === 'log.updated')
      .map((e) => JSON.parse(e.data) as { logId: string; change: string })
      .filter((d) => d.logId === logId && d.change === 'explainable');
  /**
   * Pins or unpins the log and waits for that event: every event published before it
   * is on the stream by then (one ordered stream), so counting after it is exact.
   */
  const settle = async (logId: string): Promise<void> => {
    const from = events.events().length;
    const pinned = !(await detail(logId)).pinned;
    assert.equal((await t.api('PATCH', `/api/webhooks/logs/${logId}`, { body: { pinned } })).status, 200);
    await events.waitFor((e) => {
      if (e.event !== 'log.updated' || events.events().indexOf(e) < from) return false;
      const d = JSON.parse(e.data) as { logId: string; change: string };
      return d.logId === logId && d.change === 'pinned';
    });
  };

  test('a failed verification is explainable; a success with no replay is not', async () => {
    const body = '{"n":1}';
    const bad = await t.deliver(`/webhook/${signed}`, {
      body,
      headers: { 'x-webhook-signature': createHmac('sha256', 'wrong').update(body).digest('hex') },
    });
    assert.equal(bad.status, 400);
    const failedId = bad.body.error.details.logId as string;
    assert.equal((await detail(failedId)).explainable, true);
    assert.equal(await analyzeStatus(failedId), 200);

    const okId = await delivered(plain);
    assert.equal((await detail(okId)).explainable, false);
    assert.equal(await analyzeStatus(okId), 409);
    // The list does not carry it: Explain is about the selected delivery.
    const row = (await t.api('GET', `/api/webhooks/logs?endpointId=${plain}&limit=1`)).body.data.logs[0];
    assert.equal(row.id, okId);
    assert.equal('explainable' in row, false);
  });

  test('a success whose replay failed becomes explainable, and one log.updated says so', async () => {
    const logId = await delivered(plain);
    assert.equal((await detail(logId)).explainable, false);

    const failed = await replay(logId, down.url);
    assert.equal(failed.status, 502);
    await settle(logId);
    assert.deepEqual(explainableEvents(logId), [
      { logId, endpointId: plain, change: 'explainable', explainable: true },
    ]);
    assert.equal((await detail(logId)).explainable, true);
    assert.equal(await analyzeStatus(logId), 200);

    // Already explainable: another failure, or a replay that works, changes nothing and says nothing.
    assert.equal((await replay(logId, down.url)).status, 502);
    assert.equal((await replay(logId, up.url)).status, 200);
    await settle(logId);
    assert.equal(explainableEvents(logId).length, 1);
    assert.equal((await detail(logId)).explainable, true);
  });

  test('a replay that works leaves a success unexplainable, with no event', async () => {
    const logId = await delivered(plain);
    assert.equal((await replay(logId, up.url)).status, 200);
    await settle(logId);
    assert.deepEqual(explainableEvents(logId), []);
    assert.equal((await detail(logId)).explainable, false);
  });

  test('a failed forward makes the delivery explainable too', async () => {
    const forwarding = await t.endpoint({ name: 'fwd', validationType: 'none', forwardUrl: down.url });
    const logId = await delivered(forwarding);
    const e = await events.waitFor((ev) => {
      if (ev.event !== 'log.updated') return false;
      const d = JSON.parse(ev.data) as { logId: string; change: string };
      return d.logId === logId && d.change === 'explainable';
    });
    assert.deepEqual(JSON.parse(e.data), { logId, endpointId: forwarding, change: 'explainable', explainable: true });
    assert.equal((await detail(logId)).explainable, true);
  });

  test('it follows the rule to the letter: a failure past the newest 50 replays no longer counts', async () => {
    const logId = await delivered(plain);
    assert.equal((await replay(logId, down.url)).status, 502);
    for (let i = 0; i < 49; i++) assert.equal((await replay(logId, up.url)).status, 200);
    await settle(logId);
    assert.equal((await detail(logId)).explainable, true, 'the failure is the 50th newest');
    assert.equal((await replay(logId, up.url)).status, 200);
    await settle(logId);
    assert.deepEqual(explainableEvents(logId), [
      { logId, endpointId: plain, change: 'explainable', explainable: true },
      { logId, endpointId: plain, change: 'explainable', explainable: false },
    ]);
    assert.equal((await detail(logId)).explainable, false);
    assert.equal(await analyzeStatus(logId), 409, 'analyze agrees');
  });
});
