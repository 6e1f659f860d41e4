// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { closedPort } from '../../../tests/helpers/closed-port.ts';
import { TargetServer, type Reply } from '../../../tests/helpers/target-server.ts';
import { memoryStorage } from '../test-engine.ts';
import { createNoticesStore } from './notices-store.ts';
import { createReplayStore } from './replay-store.ts';
import type { DesktopBridge, DesktopEngine, LocalRequest } from './desktop-store.ts';
import { desktopSend } from '../../../tests/helpers/desktop-send.ts';

/** The replay store's response diff, against a real engine and a real target answering differently each time. */
describe('the replay store: comparing two replays', () => {
  let t: TestEngine;
  let target: TargetServer;
  let logId: string;

  beforeAll(async () => {
    t = await startTestEngine();
    target = await TargetServer.start((_req, i): Reply =>
      i === 0
        ? { status: 200, headers: { 'x-run': 'one', 'content-type': 'application/json' }, body: '{"ok":true}' }
        : { status: 500, headers: { 'content-type': 'application/json' }, body: '{"ok":false}' },
    );
    const ep = await t.endpoint({ name: 'a', validationType: 'none' });
    const r = await t.deliver(`/webhook/${ep}`, { body: '{"n":1}', headers: { 'content-type': 'application/json' } });
    logId = (r.body as { data: { id: string } }).data.id;
  });
  afterAll(async () => {
    await target.close();
    await t.stop();
  });

  const makeStore = () => {
    const notices = createNoticesStore();
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    return { store: createReplayStore(client, notices.getState(), memoryStorage()), notices };
  };

  test('two replays, then their diff: status, headers and body, b compared with a', async () => {
    const { store, notices } = makeStore();
    await store.getState().open(logId);
    for (let i = 0; i < 2; i++) {
      await store.getState().send(logId, 'ep', '/', { targetUrl: target.url });
    }
    const [newer, older] = store.getState().history;
    expect(store.getState().history).toHaveLength(2);
    await store.getState().compare(logId, older!.id, newer!.id);
    const diff = store.getState().diff!;
    expect(diff.a.id).toBe(older!.id);
    expect(diff.status).toEqual({ a: 200, b: 500, changed: true });
    expect(diff.headers.removed).toEqual([{ name: 'x-run', value: 'one' }]);
    expect(diff.body.changed).toBe(true);
    expect(diff.body.format).toBe('json');
    expect(diff.body.patch).toContain('-  "ok": true');
    expect(diff.body.patch).toContain('+  "ok": false');
    expect(notices.getState().notices).toEqual([]);

    store.getState().closeDiff();
    expect(store.getState().diff).toBeNull();
  });

  test('a diff belongs to its log: opening another clears it; a refusal is said in words', async () => {
    const { store, notices } = makeStore();
    await store.getState().open(logId);
    const [newer, older] = store.getState().history;
    await store.getState().compare(logId, older!.id, newer!.id);
    expect(store.getState().diff).not.toBeNull();
    await store.getState().open('log_other');
    expect(store.getState().diff).toBeNull();
    await store.getState().compare('log_other', 'rp_x', 'rp_y');
    expect(store.getState().diff).toBeNull();
    expect(notices.getState().notices.map((n) => n.text)).toEqual([
      'Loading the replay history failed: Log log_other was not found. (LOG_NOT_FOUND)',
      'Comparing the replays failed: Replay rp_x of log log_other was not found (query parameter a). (REPLAY_NOT_FOUND)',
    ]);
  });

  test('an attempt recorded elsewhere goes on top of the open history once, without asking the engine again', async () => {
    const notices = createNoticesStore();
    const asked: string[] = [];
    const client = createApiClient({
      baseUrl: t.engine.apiUrl,
      token: t.token,
      fetch: (request) => {
        asked.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
    });
    const store = createReplayStore(client, notices.getState(), memoryStorage());
    await store.getState().open(logId);
    const before = store.getState().history;
    expect(before.length).toBeGreaterThan(0);
    await store.getState().send(logId, 'ep', '/', { targetUrl: target.url });
    const [mine] = store.getState().history;
    expect(store.getState().history.slice(1)).toEqual(before);
    // Its own event, arriving after the answer, is the same attempt.
    store.getState().completed(mine!);
    // A forward recorded later, and an attempt at another delivery.
    const forward = { ...mine!, id: 'rp_forward', trigger: 'forward' as const, createdAt: '2999-01-01T00:00:00.000Z' };
    store.getState().completed(forward);
    store.getState().completed({ ...mine!, id: 'rp_other', logId: 'log_other' });
    expect(store.getState().history.map((h) => h.id)).toEqual(['rp_forward', mine!.id, ...before.map((h) => h.id)]);
    // An event that overtook an older answer still lands in date order.
    const older = { ...mine!, id: 'rp_older', createdAt: before[0]!.createdAt };
    store.getState().completed(older);
    expect(
      store
        .getState()
        .history.map((h) => h.id)
        .slice(0, 4),
    ).toEqual(['rp_forward', mine!.id, 'rp_older', before[0]!.id]);
    expect(asked.filter((a) => a.endsWith('/history'))).toEqual([`GET /api/replay/${logId}/history`]);
    expect(notices.getState().notices).toEqual([]);
  });
});

/** What the replay panel shows of each attempt, against a real engine and real targets. */
describe('the replay store: outcomes, the request sent, the target remembered', () => {
  let t: TestEngine;
  let target: TargetServer;
  let endpointId: string;
  let logId: string;

  beforeAll(async () => {
    t = await startTestEngine();
    target = await TargetServer.start((req): Reply =>
      req.url === '/slow' ? { hang: true } : { status: 201, headers: { 'x-seen': 'yes' }, body: 'created' },
    );
    endpointId = await t.endpoint({ name: 'a', validationType: 'none' });
    const r = await t.deliver(`/webhook/${endpointId}/retry`, {
      body: '{"n":1}',
      headers: { 'content-type': 'application/json', 'x-first': 'one' },
    });
    logId = (r.body as { data: { id: string } }).data.id;
  });
  afterAll(async () => {
    await target.close();
    await t.stop();
  });

  const makeStore = (storage = memoryStorage()) => {
    const notices = createNoticesStore();
    const client = createApiClient({ baseUrl: t.engine.apiUrl, token: t.token });
    return { store: createReplayStore(client, notices.getState(), storage), notices };
  };

  test('a refused connection is a result like any other: the sentence, the target, the time; no notice', async () => {
    const { store, notices } = makeStore();
    const port = await closedPort();
    try {
      await store.getState().open(logId);
      const url = `${port.url}/retry`;
      await store.getState().send(logId, endpointId, '/retry', { targetUrl: url });
      const result = store.getState().result!;
      expect([result.targetUrl, result.status, result.error]).toEqual([
        url,
        null,
        {
          code: 'TARGET_UNREACHABLE',
          message: `${url} could not be reached: the connection was refused (is the server running on that port?).`,
        },
      ]);
      expect(Date.parse(result.createdAt)).not.toBeNaN();
      expect(store.getState().history[0]).toMatchObject({ id: result.id, status: null, edited: false });
      expect(notices.getState().notices).toEqual([]);
    } finally {
      await port.release();
    }
  });

  test('a target that does not answer in time is shown the same way', async () => {
    const { store, notices } = makeStore();
    await store.getState().open(logId);
    await store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/slow`, timeoutMs: 300 });
    expect(store.getState().result?.error).toEqual({
      code: 'TARGET_TIMEOUT',
      message: `${target.url}/slow did not answer within 300 ms.`,
    });
    expect(notices.getState().notices).toEqual([]);
  });

  test('a request the engine refuses is still told as a notice, with no result', async () => {
    const { store, notices } = makeStore();
    await store.getState().open(logId);
    await store.getState().send(logId, endpointId, '/retry', { targetUrl: 'ftp://example/' });
    expect(store.getState().result).toBe(null);
    expect(notices.getState().notices.map((n) => n.text)).toHaveLength(1);
    expect(notices.getState().notices[0]!.text).toMatch(/^Replay failed: .*targetUrl/);
  });

  test('an edited replay is marked, and its request reads back as sent: headers in order, the body, its whole size', async () => {
    const { store, notices } = makeStore();
    await store.getState().open(logId);
    const body = 'x'.repeat(70_000);
    await store.getState().send(logId, endpointId, '/retry', {
      targetUrl: `${target.url}/retry`,
      method: 'PUT',
      headers: { 'X-Added': 'two' },
      body,
    });
    const mine = store.getState().history[0]!;
    expect([mine.edited, mine.status, mine.method]).toEqual([true, 201, 'PUT']);
    await store.getState().showExchange(logId, mine.id);
    const x = store.getState().exchange!;
    expect(x.id).toBe(mine.id);
    // The delivery's headers in their received order (hop-by-hop ones left out), the engine's own, then the one added.
    const log = (await t.api<{ data: { rawHeaders: [string, string][] } }>('GET', `/api/webhooks/logs/${logId}`)).body
      .data;
    expect(x.requestHeaders.map(([n]) => n.toLowerCase())).toEqual([
      ...log.rawHeaders.map(([n]) => n.toLowerCase()).filter((n) => n !== 'connection'),
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
      'x-added',
    ]);
    expect(x.requestHeaders.find(([n]) => n === 'X-Added')).toEqual(['X-Added', 'two']);
    expect([x.requestBody.length, x.requestBodySize, x.requestBodyTruncated]).toEqual([65_536, 70_000, true]);
    expect(x.responseBody).toBe('created');
    // A plain replay is not edited.
    await store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/retry` });
    expect(store.getState().history[0]!.edited).toBe(false);
    store.getState().closeExchange();
    expect(store.getState().exchange).toBe(null);
    expect(notices.getState().notices).toEqual([]);
  });

  test('the target offered is the most recent one used: per endpoint, else for any endpoint, else localhost:3000', async () => {
    const storage = memoryStorage();
    const { store } = makeStore(storage);
    expect(store.getState().targetFor(endpointId, '/retry')).toBe('http://localhost:3000/retry');
    await store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/hooks/retry` });
    await store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/other` });
    // Exactly as typed last for the same sub-path, its base for another.
    expect(store.getState().targetFor(endpointId, '/retry')).toBe(`${target.url}/other`);
    expect(store.getState().targetFor(endpointId, '/')).toBe(`${target.url}/other`);
    // An endpoint never replayed gets the last target used anywhere.
    expect(store.getState().targetFor('ep_never', '/')).toBe(`${target.url}/other`);
    // Its own wins once it has one, and remembering survives a new page (a new store on the same storage).
    storage.setItem(
      `hookscope.replayTarget.ep_never`,
      JSON.stringify({ target: 'http://localhost:5000/x', subPath: '/' }),
    );
    expect(makeStore(storage).store.getState().targetFor('ep_never', '/')).toBe('http://localhost:5000/x');
    expect(makeStore(storage).store.getState().targetFor(endpointId, '/retry')).toBe(`${target.url}/other`);
  });
});

/**
 * The desktop app showing a team server: a replay to this computer is built by the engine, sent by the app
 * (here the main process's own send call, electron/local-send.ts, with the real http-sender), and reported
 * to the engine. A real engine plays the team server; every failure is shown where replay failures are.
 */
describe('the replay store: sent from this computer while a team server is shown', () => {
  let t: TestEngine;
  let target: TargetServer;
  let endpointId: string;
  let logId: string;
  const BODY = '{"n":1,"é":true}';

  beforeAll(async () => {
    t = await startTestEngine();
    target = await TargetServer.start((): Reply => ({ status: 201, headers: { 'X-Seen': 'yes' }, body: 'created' }));
    endpointId = await t.endpoint({ name: 'a', validationType: 'none' });
    const r = await t.deliver(`/webhook/${endpointId}/retry?q=1`, {
      body: BODY,
      headers: { 'content-type': 'application/json', 'x-first': 'one' },
    });
    logId = (r.body as { data: { id: string } }).data.id;
  });
  afterAll(async () => {
    await target.close();
    await t.stop();
  });

  type Answer = Awaited<ReturnType<DesktopBridge['sendFromThisComputer']>>;
  /** A store in the desktop app: its bridge sends for real unless `answer` says otherwise; every call recorded. */
  const makeStore = (
    options: { engine?: DesktopEngine | null; answer?: (request: LocalRequest) => Promise<Answer> } = {},
  ) => {
    const notices = createNoticesStore();
    const asked: string[] = [];
    const bridged: LocalRequest[] = [];
    const client = createApiClient({
      baseUrl: t.engine.apiUrl,
      token: t.token,
      fetch: (request) => {
        asked.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
    });
    const engine = options.engine === undefined ? { kind: 'team' as const, url: t.engine.apiUrl } : options.engine;
    const bridge = {
      sendFromThisComputer: async (request: LocalRequest): Promise<Answer> => {
        bridged.push(request);
        return options.answer ? options.answer(request) : ((await desktopSend(request)) as Answer);
      },
    };
    const store = createReplayStore(client, notices.getState(), memoryStorage(), { bridge, engine: () => engine });
    return { store, notices, asked, bridged };
  };
  const texts = (notices: ReturnType<typeof createNoticesStore>): string[] =>
    notices.getState().notices.map((n) => n.text);

  test('outgoing, then the app sends it, then the engine records it: trigger client, the exact bytes, in history', async () => {
    const { store, notices, asked, bridged } = makeStore();
    await store.getState().open(logId);
    const before = target.received.length;
    await store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/retry`, resign: false });
    expect(asked).toEqual([
      `GET /api/replay/${logId}/history`,
      `POST /api/replay/${logId}/outgoing`,
      `POST /api/replay/${logId}/sent`,
    ]);
    // To the target as typed (the sub-path is in it already), the body as the engine built it.
    expect(bridged).toHaveLength(1);
    expect(bridged[0]!.url).toBe(`${target.url}/retry`);
    expect(Buffer.from(bridged[0]!.body, bridged[0]!.bodyEncoding).toString()).toBe(BODY);
    expect(target.received).toHaveLength(before + 1);
    const got = target.received.at(-1)!;
    expect([got.method, got.url, got.body.toString()]).toEqual(['POST', '/retry', BODY]);
    expect(got.rawHeaders.slice(0, -1)).toEqual(bridged[0]!.headers);
    const result = store.getState().result!;
    expect([result.trigger, result.status, result.targetUrl, result.method, result.edited, result.error]).toEqual([
      'client',
      201,
      `${target.url}/retry`,
      'POST',
      false,
      null,
    ]);
    expect([result.responseBody, result.responseRawHeaders[0]]).toEqual(['created', ['X-Seen', 'yes']]);
    expect(store.getState().history[0]).toMatchObject({ id: result.id, trigger: 'client', status: 201 });
    expect(texts(notices)).toEqual([]);
  });

  test('a target that is not up: the attempt is recorded and shown like the engine’s own, no notice', async () => {
    const port = await closedPort();
    try {
      const { store, notices, asked } = makeStore();
      await store.getState().open(logId);
      await store.getState().send(logId, endpointId, '/retry', { targetUrl: `${port.url}/retry` });
      expect(asked.at(-1)).toBe(`POST /api/replay/${logId}/sent`);
      const result = store.getState().result!;
      expect([result.trigger, result.status, result.error]).toEqual([
        'client',
        null,
        {
          code: 'TARGET_UNREACHABLE',
          message: `${port.url}/retry could not be reached: the connection was refused (is the server running on that port?).`,
        },
      ]);
      expect(store.getState().history[0]!.id).toBe(result.id);
      expect(texts(notices)).toEqual([]);
    } finally {
      await port.release();
    }
  });

  test('an edited replay: the engine builds the edits, the app sends them, the body is reported and reads back', async () => {
    const { store, notices, bridged } = makeStore();
    await store.getState().open(logId);
    await store.getState().send(logId, endpointId, '/retry', {
      targetUrl: `${target.url}/retry`,
      method: 'PUT',
      headers: { 'X-Added': 'two' },
      body: 'edited body',
    });
    expect(bridged[0]!.method).toBe('PUT');
    expect(bridged[0]!.headers.at(-1)).toEqual(['X-Added', 'two']);
    expect(target.received.at(-1)!.body.toString()).toBe('edited body');
    const mine = store.getState().history[0]!;
    expect([mine.trigger, mine.edited, mine.method, mine.status]).toEqual(['client', true, 'PUT', 201]);
    await store.getState().showExchange(logId, mine.id);
    expect([store.getState().exchange!.requestBody, store.getState().exchange!.requestBodySize]).toEqual([
      'edited body',
      11,
    ]);
    expect(texts(notices)).toEqual([]);
  });

  test("the app's refusal, or its rejection, is a notice in its words; nothing is reported to the engine", async () => {
    const refusal =
      'The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); http://127.0.0.1:1/ is sent by the team server.';
    const refused = makeStore({ answer: async () => ({ ok: false, error: refusal }) });
    await refused.store.getState().open(logId);
    await refused.store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/retry` });
    expect(texts(refused.notices)).toEqual([`Replay failed: ${refusal}`]);
    expect(refused.store.getState().result).toBe(null);
    expect(refused.asked.filter((a) => a.endsWith('/sent'))).toEqual([]);

    const rejected = makeStore({
      answer: () => Promise.reject(new Error("Refused: the calling page is on http://x, not on the app's origin.")),
    });
    await rejected.store.getState().open(logId);
    await rejected.store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/retry` });
    expect(texts(rejected.notices)).toEqual([
      "Replay failed: Refused: the calling page is on http://x, not on the app's origin.",
    ]);
    expect(rejected.store.getState().sending).toBe(false);
  });

  test("the engine's refusals, of outgoing or of sent, are notices in its words; outgoing refused: nothing is sent", async () => {
    const { store, notices, bridged } = makeStore();
    await store.getState().open('log_missing');
    await store.getState().send('log_missing', endpointId, '/retry', { targetUrl: `${target.url}/retry` });
    expect(bridged).toEqual([]);
    expect(texts(notices).at(-1)).toBe('Replay failed: Log log_missing was not found. (LOG_NOT_FOUND)');

    // A result the engine cannot record (a status no HTTP response has): said, not shown as an attempt.
    const odd = makeStore({
      answer: async () => ({
        ok: true,
        result: {
          status: 99,
          responseHeaders: [],
          responseBody: '',
          responseTruncated: false,
          responseTime: 1,
          error: null,
        },
      }),
    });
    await odd.store.getState().open(logId);
    await odd.store.getState().send(logId, endpointId, '/retry', { targetUrl: `${target.url}/retry` });
    expect(odd.asked.at(-1)).toBe(`POST /api/replay/${logId}/sent`);
    expect(odd.store.getState().result).toBe(null);
    expect(texts(odd.notices)).toHaveLength(1);
    expect(texts(odd.notices)[0]).toMatch(/^Replay failed: .*status must be a whole number from 100 to 599/);
  });

  test('the engine sends as before: a target off this computer, this computer shown, or no engine read yet', async () => {
    for (const [engine, targetUrl] of [
      [{ kind: 'team', url: t.engine.apiUrl }, 'http://localhost.invalid/'],
      [{ kind: 'local' }, `${target.url}/retry`],
      [null, `${target.url}/retry`],
    ] as [DesktopEngine | null, string][]) {
      const { store, asked, bridged } = makeStore({ engine });
      await store.getState().open(logId);
      await store.getState().send(logId, endpointId, '/retry', { targetUrl, timeoutMs: 2000 });
      expect(bridged).toEqual([]);
      expect(asked.filter((a) => a.startsWith('POST'))).toEqual([`POST /api/replay/${logId}`]);
      expect(store.getState().history[0]!.trigger).toBe('manual');
    }
  });
});
