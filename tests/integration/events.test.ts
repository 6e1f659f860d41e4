import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { eventually, openSse, type SseStream } from '../helpers/sse-stream.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

describe('GET /api/events (server-sent events)', () => {
  let t: TestEngine;
  let aliceToken: string;
  const streams: SseStream[] = [];
  const open = async (path = '/api/events', token: string | null = t.token, headers: Record<string, string> = {}) => {
    const s = await openSse(t.engine.apiUrl + path, {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    });
    streams.push(s);
    return s;
  };

  before(async () => {
    t = await startTestEngine({ sseHeartbeatMs: 50 });
    aliceToken = await t.engine.issueToken('alice');
  });
  after(async () => {
    for (const s of streams) s.close();
    await t.stop();
  });

  test('401 with the error envelope without a token', async () => {
    const s = await open('/api/events', null);
    assert.equal(s.response.status, 401);
    const body = (await s.response.json()) as { success: boolean; error: { code: string } };
    assert.equal(body.success, false);
    assert.match(body.error.code, /TOKEN/);
    assert.equal(t.engine.events.listenerCount(), 0);
  });

  test('streams log.created to the right account only, in the SSE wire format, with the streaming headers', async () => {
    const mine = await open();
    const alices = await open('/api/events', aliceToken);
    assert.equal(mine.response.status, 200);
    assert.match(mine.response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(mine.response.headers.get('cache-control'), 'no-cache');
    assert.equal(mine.response.headers.get('x-accel-buffering'), 'no');

    const epLocal = await t.endpoint({ name: 'local', validationType: 'none' });
    const epAlice = await t.endpoint({ name: 'alice', validationType: 'none' }, aliceToken);
    const dl = await t.deliver(`/webhook/${epLocal}/orders`, {
      body: '{"local":true}',
      headers: { 'content-type': 'application/json' },
    });
    const da = await t.deliver(`/webhook/${epAlice}`, { body: 'alice' });
    const localLogId = dl.body.data.id as string;
    const aliceLogId = da.body.data.id as string;

    const e = await mine.waitFor((x) => x.event === 'log.created');
    const data = JSON.parse(e.data);
    assert.equal(data.id, localLogId);
    assert.equal(data.endpointId, epLocal);
    assert.equal(data.path, '/orders');
    assert.equal(data.status, 'success');
    assert.match(
      mine.raw(),
      new RegExp(`id: ${e.id}\\nevent: log\\.created\\ndata: \\{[^\\n]*"id":"${localLogId}"[^\\n]*\\}\\n\\n`),
    );

    const ea = await alices.waitFor((x) => x.event === 'log.created');
    assert.equal(JSON.parse(ea.data).id, aliceLogId);
    // Both deliveries were published before this point; a heartbeat written
    // after it proves any leaked event would already be in the stream.
    await mine.waitForText(/: heartbeat\n\n/, 10_000, mine.raw().length);
    assert.ok(!mine.raw().includes(aliceLogId), "another account's delivery must never reach this stream");
    assert.ok(!alices.raw().includes(localLogId));
    mine.close();
    alices.close();
  });

  test('a heartbeat comment arrives on an idle stream', async () => {
    const s = await open();
    await s.waitForText(/\n?: heartbeat\n\n/);
    await s.waitForText(/(: heartbeat\n\n[^]*){2}/);
    s.close();
  });

  test('Last-Event-ID (header or ?lastEventId=) replays the kept events after it', async () => {
    const ep = await t.endpoint({ name: 'resume', validationType: 'none' });
    const first = await open();
    await t.deliver(`/webhook/${ep}`, { body: 'one' });
    const e1 = await first.waitFor((x) => x.event === 'log.created' && x.data.includes(ep));
    first.close();

    const missed: string[] = [];
    for (const body of ['two', 'three'])
      missed.push((await t.deliver(`/webhook/${ep}`, { body })).body.data.id as string);

    for (const resumed of [
      await open('/api/events', t.token, { 'last-event-id': String(e1.id) }),
      await open(`/api/events?lastEventId=${e1.id}`),
    ]) {
      await resumed.waitFor((x) => x.data.includes(missed[1]!));
      const ids = resumed
        .events()
        .filter((x) => x.data.includes(ep))
        .map((x) => JSON.parse(x.data).id as string);
      assert.deepEqual(ids, missed, 'exactly the events after the given id, oldest first');
      assert.ok(resumed.events().every((x) => Number(x.id) > Number(e1.id)));
      resumed.close();
    }
  });

  test('a bad Last-Event-ID is a 400 naming the field', async () => {
    const h = await open('/api/events', t.token, { 'last-event-id': 'abc' });
    assert.equal(h.response.status, 400);
    assert.equal(((await h.response.json()) as any).error.details.field, 'Last-Event-ID');
    const q = await open('/api/events?lastEventId=-1');
    assert.equal(q.response.status, 400);
    assert.equal(((await q.response.json()) as any).error.details.issues[0].field, 'lastEventId');
  });

  test('the bus listener is released when the client disconnects', async () => {
    await eventually(() => t.engine.events.listenerCount() === 0, 'earlier streams are released');
    const a = await open();
    const b = await open('/api/events', aliceToken);
    await a.waitForText(/retry: \d+/);
    await b.waitForText(/retry: \d+/);
    assert.equal(t.engine.events.listenerCount(), 2);
    a.close();
    b.close();
    await eventually(() => t.engine.events.listenerCount() === 0, 'listeners are removed after disconnect');
  });

  test('the OpenAPI document lists the stream as text/event-stream', async () => {
    const doc = (await t.api('GET', '/api/openapi.json', { token: null })).body;
    const op = doc.paths['/api/events'].get;
    assert.ok(op.responses['200'].content['text/event-stream']);
    assert.deepEqual(op.security, [{ bearerAuth: [] }]);
    assert.ok(op.parameters.some((p: { name: string }) => p.name === 'lastEventId'));
  });
});

describe('GET /api/events when the engine stops', () => {
  test('open streams end so the engine stops promptly, and no listener is left', async () => {
    const t = await startTestEngine();
    const s = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    await s.waitForText(/retry:/);
    const stopped = t.stop();
    await s.ended;
    await stopped;
    assert.equal(t.engine.events.listenerCount(), 0);
  });
});

describe('GET /api/events: at most maxEventStreamsPerAccount open streams per account', () => {
  test("beyond the cap 429 with Retry-After and the envelope; another account's streams do not count; closing one frees its place", async () => {
    const t = await startTestEngine({ maxEventStreamsPerAccount: 3 });
    const streams: SseStream[] = [];
    const open = async (token: string): Promise<SseStream> => {
      const s = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${token}` });
      streams.push(s);
      return s;
    };
    try {
      const alice = await t.engine.issueToken('alice');
      const mine: SseStream[] = [];
      for (let i = 0; i < 3; i++) {
        const s = await open(t.token);
        assert.equal(s.response.status, 200);
        await s.waitForText(/retry: \d+/);
        mine.push(s);
      }
      const refused = await open(t.token);
      assert.equal(refused.response.status, 429);
      assert.equal(refused.response.headers.get('retry-after'), '5');
      assert.deepEqual(await refused.response.json(), {
        success: false,
        error: {
          code: 'TOO_MANY_EVENT_STREAMS',
          message:
            'This account already has 3 open event streams, the most allowed (maxEventStreamsPerAccount); ' +
            'close one (another tab or `hookscope tail`) and try again.',
          details: { retryAfterSeconds: 5 },
        },
      });

      for (let i = 0; i < 3; i++) assert.equal((await open(alice)).response.status, 200, "alice's own places");
      assert.equal((await open(alice)).response.status, 429, 'and her own cap');

      mine[0]!.close();
      // The engine learns of the close from the socket: ask again until it has (a hang guard, not a timing assertion).
      let next = await open(t.token);
      for (const deadline = Date.now() + 10_000; next.response.status === 429 && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 20));
        next = await open(t.token);
      }
      assert.equal(next.response.status, 200, 'the closed stream freed its place');
      const ep = await t.endpoint({ name: 'after the cap', validationType: 'none' });
      await t.deliver(`/webhook/${ep}`, { body: 'x' });
      await next.waitFor((e) => e.event === 'log.created');
      assert.equal((await open(t.token)).response.status, 429, 'full again');
    } finally {
      for (const s of streams) s.close();
      await t.stop();
    }
  });
});
