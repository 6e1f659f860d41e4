import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { openSse, type SseEvent, type SseStream } from '../helpers/sse-stream.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'events-published-secret';

// What each feature publishes, read off a real `GET /api/events` stream. Each
// test compares the whole ordered list of one event type about one id, so a
// missing, doubled or misnamed publish fails it; and each checks that
// another account's open stream got none of it.
describe('events published by the features on /api/events', () => {
  let t: TestEngine;
  let aliceToken: string;
  let mine: SseStream;
  let alices: SseStream;
  let target: TargetServer;

  before(async () => {
    t = await startTestEngine({ sseHeartbeatMs: 50 });
    aliceToken = await t.engine.issueToken('alice');
    target = await TargetServer.start();
    mine = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    alices = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${aliceToken}` });
    await mine.waitForText(/retry: \d+/);
    await alices.waitForText(/retry: \d+/);
  });
  after(async () => {
    mine.close();
    alices.close();
    await target.close();
    await t.stop();
  });

  const payloads = (stream: SseStream, type: string, has: (data: any) => boolean): unknown[] =>
    stream
      .events()
      .filter((e: SseEvent) => e.event === type)
      .map((e) => JSON.parse(e.data) as unknown)
      .filter(has);
  const waitForPayload = (type: string, expected: Record<string, unknown>) =>
    mine.waitFor((e) => {
      if (e.event !== type) return false;
      const data = JSON.parse(e.data) as Record<string, unknown>;
      return Object.entries(expected).every(([k, v]) => data[k] === v);
    });
  const logUpdates = (logId: string) => payloads(mine, 'log.updated', (d) => d.logId === logId);

  /**
   * Everything about `ids` has been published by now; a heartbeat written to
   * Alice's stream after this point proves that anything leaked to her would
   * already be in it.
   */
  const assertAliceSawNone = async (ids: string[]): Promise<void> => {
    await alices.waitForText(/: heartbeat\n\n/, 10_000, alices.raw().length);
    for (const id of ids) assert.ok(!alices.raw().includes(id), `${id} reached another account's stream`);
  };

  const failedLog = async (): Promise<{ endpointId: string; logId: string }> => {
    const endpointId = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: SECRET });
    const r = await t.deliver(`/webhook/${endpointId}`, {
      body: '{"n":1}',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': 'sha256=00' },
    });
    assert.equal(r.status, 400);
    return { endpointId, logId: r.body.error.details.logId as string };
  };
  const acceptedLog = async (): Promise<{ endpointId: string; logId: string }> => {
    const endpointId = await t.endpoint({ name: 'open', validationType: 'none' });
    const r = await t.deliver(`/webhook/${endpointId}`, { body: 'hello' });
    assert.equal(r.status, 200);
    return { endpointId, logId: r.body.data.id as string };
  };

  test('endpoint.changed on create, update, secret regeneration and delete: the id and the change, never the secret', async () => {
    const endpointId = await t.endpoint({ name: 'lifecycle', validationType: 'hmac_sha256', webhookSecret: SECRET });
    assert.equal((await t.api('PATCH', `/api/endpoints/${endpointId}`, { body: { name: 'renamed' } })).status, 200);
    const regenerated = await t.api('POST', `/api/endpoints/${endpointId}/regenerate-secret`, { body: {} });
    assert.equal(regenerated.status, 200);
    const newSecret = regenerated.body.data.webhookSecret as string;
    assert.equal((await t.api('DELETE', `/api/endpoints/${endpointId}`)).status, 200);

    await waitForPayload('endpoint.changed', { endpointId, change: 'deleted' });
    assert.deepEqual(
      payloads(mine, 'endpoint.changed', (d) => d.endpointId === endpointId),
      [
        { endpointId, change: 'created' },
        { endpointId, change: 'updated' },
        { endpointId, change: 'secret_regenerated' },
        { endpointId, change: 'deleted' },
      ],
    );
    assert.ok(!mine.raw().includes(SECRET) && !mine.raw().includes(newSecret), 'a secret reached the stream');
    await assertAliceSawNone([endpointId]);
  });

  test('a refused change publishes nothing', async () => {
    const endpointId = await t.endpoint({ name: 'unsigned', validationType: 'none' });
    // Only hmac_sha256 secrets can be regenerated; the 409 changed nothing.
    assert.equal((await t.api('POST', `/api/endpoints/${endpointId}/regenerate-secret`, { body: {} })).status, 409);
    assert.equal((await t.api('DELETE', `/api/endpoints/${endpointId}`)).status, 200);
    await waitForPayload('endpoint.changed', { endpointId, change: 'deleted' });
    assert.deepEqual(
      payloads(mine, 'endpoint.changed', (d) => d.endpointId === endpointId),
      [
        { endpointId, change: 'created' },
        { endpointId, change: 'deleted' },
      ],
    );
  });

  test('log.updated (analysis) when an analysis is stored, not when the stored one is returned', async () => {
    const { endpointId, logId } = await failedLog();
    const first = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`);
    assert.equal(first.status, 200);
    assert.equal(first.body.data.cached, false);
    await waitForPayload('log.updated', { logId });
    const cached = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`);
    assert.equal(cached.body.data.cached, true);
    assert.equal((await t.api('POST', `/api/webhooks/logs/${logId}/analyze?refresh=true`)).body.data.cached, false);

    // The share event that follows shows the cached call's publish would already be in the stream.
    assert.equal((await t.api('POST', `/api/webhooks/${logId}/share`, { body: {} })).status, 201);
    await waitForPayload('log.updated', { logId, change: 'share' });
    assert.deepEqual(logUpdates(logId), [
      { logId, endpointId, change: 'analysis' },
      { logId, endpointId, change: 'analysis' },
      { logId, endpointId, change: 'share' },
    ]);
    await assertAliceSawNone([logId, endpointId]);
  });

  test('log.updated (share) when a link is created, replaced and revoked', async () => {
    const { endpointId, logId } = await acceptedLog();
    assert.equal((await t.api('POST', `/api/webhooks/${logId}/share`, { body: {} })).status, 201);
    assert.equal((await t.api('POST', `/api/webhooks/${logId}/share`, { body: { expiresInHours: 2 } })).status, 201);
    assert.equal((await t.api('DELETE', `/api/webhooks/${logId}/share`)).status, 200);
    // No link left: 404, and nothing to publish.
    assert.equal((await t.api('DELETE', `/api/webhooks/${logId}/share`)).status, 404);
    const replayed = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: target.url } });
    assert.equal(replayed.status, 200);

    await waitForPayload('log.updated', { logId, change: 'replay' });
    assert.deepEqual(logUpdates(logId), [
      { logId, endpointId, change: 'share' },
      { logId, endpointId, change: 'share' },
      { logId, endpointId, change: 'share' },
      { logId, endpointId, change: 'replay' },
    ]);
    await assertAliceSawNone([logId, endpointId]);
  });

  test('log.updated (replay) for each recorded replay, an unreachable target included', async () => {
    const { endpointId, logId } = await acceptedLog();
    const ok = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/hook` } });
    assert.equal(ok.status, 200);
    const down = await TargetServer.start();
    down.down = true;
    try {
      const failed = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: down.url } });
      assert.equal(failed.status, 502);
    } finally {
      await down.close();
    }
    // Both requests are answered after their events were written, but the stream is another connection.
    await mine.waitFor(() => logUpdates(logId).length >= 3);
    assert.deepEqual(logUpdates(logId), [
      { logId, endpointId, change: 'replay' },
      { logId, endpointId, change: 'replay' },
      // The failed replay made the log explainable (remediation's rule): said once, after the replay's own event.
      { logId, endpointId, change: 'explainable', explainable: true },
    ]);
    await assertAliceSawNone([logId, endpointId]);
  });

  test('log.updated (forward) when a forward attempt is recorded', async () => {
    const endpointId = await t.endpoint({ name: 'forwarded', validationType: 'none', forwardUrl: `${target.url}/fwd` });
    const before = target.received.length;
    const r = await t.deliver(`/webhook/${endpointId}/orders`, { body: 'forward me' });
    assert.equal(r.status, 200);
    const logId = r.body.data.id as string;
    await waitForPayload('log.updated', { logId, change: 'forward' });
    assert.equal(target.received.length, before + 1);
    assert.equal(target.received.at(-1)!.url, '/fwd/orders');
    assert.deepEqual(logUpdates(logId), [{ logId, endpointId, change: 'forward' }]);
    await assertAliceSawNone([logId, endpointId]);
  });

  test('log.updated (pinned) when a pin changes, not when it is set to its current value', async () => {
    const { endpointId, logId } = await acceptedLog();
    const patch = (pinned: boolean) => t.api('PATCH', `/api/webhooks/logs/${logId}`, { body: { pinned } });
    assert.equal((await patch(true)).status, 200);
    assert.equal((await patch(true)).status, 200);
    assert.equal((await patch(false)).status, 200);
    assert.equal((await patch(false)).status, 200);
    // Refused (404): nothing to publish.
    assert.equal((await t.api('PATCH', '/api/webhooks/logs/log_unknown', { body: { pinned: true } })).status, 404);
    // The share event that follows shows a repeated pin's publish would already be in the stream.
    assert.equal((await t.api('POST', `/api/webhooks/${logId}/share`, { body: {} })).status, 201);
    await waitForPayload('log.updated', { logId, change: 'share' });
    assert.deepEqual(logUpdates(logId), [
      { logId, endpointId, change: 'pinned' },
      { logId, endpointId, change: 'pinned' },
      { logId, endpointId, change: 'share' },
    ]);
    await assertAliceSawNone([logId, endpointId]);
  });

  test('log.deleted for a deleted log, for many (one event per endpoint) and for a clear (unpinned ids)', async () => {
    const deletions = (endpointId: string) => payloads(mine, 'log.deleted', (d) => d.endpointId === endpointId);
    const first = await acceptedLog();
    const second = await acceptedLog();
    const more = async (endpointId: string): Promise<string> =>
      (await t.deliver(`/webhook/${endpointId}`, { body: 'more' })).body.data.id as string;
    const [a2, a3, a4] = [await more(first.endpointId), await more(first.endpointId), await more(first.endpointId)];
    const b2 = await more(second.endpointId);

    assert.equal((await t.api('DELETE', `/api/webhooks/logs/${first.logId}`)).status, 200);
    const many = await t.api('POST', '/api/webhooks/logs/delete', {
      body: { ids: [b2, a2, 'log_unknown', second.logId] },
    });
    assert.equal(many.body.data.deleted, 3);
    assert.equal((await t.api('PATCH', `/api/webhooks/logs/${a3}`, { body: { pinned: true } })).status, 200);
    const cleared = await t.api('DELETE', `/api/endpoints/${first.endpointId}/logs`);
    assert.deepEqual(cleared.body.data, { endpointId: first.endpointId, deleted: 1, pinnedKept: 1 });
    // Nothing left to clear, nothing found to delete: no events.
    assert.equal((await t.api('DELETE', `/api/endpoints/${first.endpointId}/logs`)).body.data.deleted, 0);
    assert.equal((await t.api('POST', '/api/webhooks/logs/delete', { body: { ids: [a2] } })).body.data.deleted, 0);
    assert.equal((await t.api('DELETE', `/api/webhooks/logs/${a2}`)).status, 404);
    // The last event: everything above was published before it.
    assert.equal((await t.api('DELETE', `/api/webhooks/logs/${a3}`)).status, 200);

    await waitForPayload('log.deleted', { endpointId: first.endpointId, cleared: false });
    await mine.waitFor(() => deletions(first.endpointId).length >= 4);
    assert.deepEqual(deletions(first.endpointId), [
      { endpointId: first.endpointId, logIds: [first.logId], cleared: false },
      { endpointId: first.endpointId, logIds: [a2], cleared: false },
      { endpointId: first.endpointId, logIds: [a4], cleared: true },
      { endpointId: first.endpointId, logIds: [a3], cleared: false },
    ]);
    assert.deepEqual(deletions(second.endpointId), [
      { endpointId: second.endpointId, logIds: [b2, second.logId], cleared: false },
    ]);
    await assertAliceSawNone([first.logId, second.logId, a2, a3, a4, b2, first.endpointId, second.endpointId]);
  });

  test("another account's changes reach its own stream and not this one", async () => {
    const aliceEndpoint = await t.endpoint({ name: 'alice', validationType: 'none' }, aliceToken);
    const r = await t.deliver(`/webhook/${aliceEndpoint}`, { body: 'alice' });
    const aliceLog = r.body.data.id as string;
    assert.equal((await t.api('POST', `/api/webhooks/${aliceLog}/share`, { body: {}, token: aliceToken })).status, 201);
    await alices.waitFor((e) => e.event === 'log.updated' && e.data.includes(aliceLog));
    assert.deepEqual(
      payloads(alices, 'endpoint.changed', () => true),
      [{ endpointId: aliceEndpoint, change: 'created' }],
    );
    assert.deepEqual(
      payloads(alices, 'log.updated', () => true),
      [{ logId: aliceLog, endpointId: aliceEndpoint, change: 'share' }],
    );
    await mine.waitForText(/: heartbeat\n\n/, 10_000, mine.raw().length);
    assert.ok(!mine.raw().includes(aliceEndpoint) && !mine.raw().includes(aliceLog));
  });

  test('settings.changed reaches every account once, naming what changed', async () => {
    const r = await t.api('PATCH', '/api/settings', { body: { retention: { maxLogsPerAccount: 10_000 } } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await mine.waitFor((e) => e.event === 'settings.changed');
    await alices.waitFor((e) => e.event === 'settings.changed');
    for (const stream of [mine, alices]) {
      assert.deepEqual(
        payloads(stream, 'settings.changed', () => true),
        [{ changed: ['retention.maxLogsPerAccount'] }],
      );
    }
  });

  test('the OpenAPI document describes the event map: EngineEvent, one component per event', async () => {
    const doc = (await t.api('GET', '/api/openapi.json', { token: null })).body;
    const schemas = doc.components.schemas;
    const ref = (name: string) => `#/components/schemas/${name}`;
    assert.deepEqual(schemas.EngineEvent.discriminator, {
      propertyName: 'type',
      mapping: {
        'log.created': ref('LogCreatedEvent'),
        'log.updated': ref('LogUpdatedEvent'),
        'log.deleted': ref('LogDeletedEvent'),
        'replay.completed': ref('ReplayCompletedEvent'),
        'forward.updated': ref('ForwardUpdatedEvent'),
        'endpoint.changed': ref('EndpointChangedEvent'),
        'tunnel.status': ref('TunnelStatusEvent'),
        'settings.changed': ref('SettingsChangedEvent'),
        'refusals.counted': ref('RefusalsCountedEvent'),
      },
    });
    // Payloads that are API responses too are the same components.
    assert.deepEqual(schemas.LogCreatedEvent.properties.data, { $ref: ref('LogSummary') });
    assert.deepEqual(schemas.ReplayCompletedEvent.properties.data, { $ref: ref('ReplayHistoryEntry') });
    assert.deepEqual(schemas.ForwardUpdatedEvent.properties.data, { $ref: ref('ForwardStatus') });
    assert.deepEqual(schemas.RefusalsCountedEvent.properties.data, { $ref: ref('Refusals') });
    assert.deepEqual(schemas.EndpointChanged.properties.change.enum, [
      'created',
      'updated',
      'secret_regenerated',
      'secret_set',
      'deleted',
    ]);
    assert.deepEqual(schemas.LogUpdated.properties.change.enum, [
      'analysis',
      'share',
      'replay',
      'forward',
      'pinned',
      'explainable',
    ]);
    assert.deepEqual(schemas.LogUpdated.required, ['logId', 'endpointId', 'change']);
    assert.deepEqual(schemas.LogDeleted.required, ['endpointId', 'logIds', 'cleared']);
    const ok = doc.paths['/api/events'].get.responses['200'];
    assert.match(ok.description, /EngineEvent/);
    assert.match(ok.content['text/event-stream'].schema.description, /#\/components\/schemas\/EngineEvent/);
  });
});
