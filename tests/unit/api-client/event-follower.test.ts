import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient, type ApiClient } from '../../../server/api-client/api-client.ts';
import { ApiError, NETWORK_ERROR } from '../../../server/api-client/api-error.ts';
import { followEvents, type ReceivedEvent } from '../../../server/api-client/event-follower.ts';
import { closedPort } from '../../helpers/closed-port.ts';
import { after, describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import { startTestEngine } from '../../helpers/test-engine.ts';

/**
 * A real SSE server on a free port: the n-th request to /api/events is answered
 * by `script[n]` (past the end: 503). Records each request's Last-Event-ID.
 */
async function sseServer(script: ((res: ServerResponse) => void)[]) {
  const lastEventIds: (string | undefined)[] = [];
  const authorizations: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    const n = lastEventIds.length;
    lastEventIds.push(req.headers['last-event-id'] as string | undefined);
    authorizations.push(req.headers.authorization);
    const answer = script[n];
    if (!answer) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: { code: 'SCRIPT_OVER', message: 'no more connections' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    answer(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lastEventIds,
    authorizations,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const event = (id: number, name: string, data: unknown): string =>
  `id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Follows until `until` says so (then aborts); answers what was received and said.
 * Also stops when the test ends (`testSignal`: its time limit), so a failing test never leaves a follower running.
 */
async function follow(
  testSignal: AbortSignal,
  opts: {
    connect: () => Promise<ApiClient>;
    until: (events: ReceivedEvent[]) => boolean;
    isRetriable?: (e: unknown) => boolean;
    idleTimeoutMs?: number;
  },
) {
  const stop = new AbortController();
  testSignal.addEventListener('abort', () => stop.abort(), { once: true });
  const events: ReceivedEvent[] = [];
  const statuses: string[] = [];
  let connects = 0;
  await followEvents({
    signal: stop.signal,
    connect: () => {
      connects++;
      return opts.connect();
    },
    onEvent: (e) => {
      events.push(e);
      if (opts.until(events)) stop.abort();
    },
    onStatus: (m) => statuses.push(m),
    isRetriable: opts.isRetriable,
    idleTimeoutMs: opts.idleTimeoutMs,
    initialBackoffMs: 5,
    maxBackoffMs: 20,
  });
  return { events, statuses, connects };
}

describe('followEvents against a small SSE server', () => {
  test('reconnects when the stream ends and resumes with Last-Event-ID; non-JSON data and comments are skipped', async (t) => {
    const s = await sseServer([
      (res) => {
        res.write(
          event(1, 'log.created', { id: 'log_1' }) + ': heartbeat\n\n' + 'id: 2\nevent: odd\ndata: not json\n\n',
        );
        res.end();
      },
      (res) => res.write(event(3, 'log.updated', { logId: 'log_1' })),
    ]);
    try {
      const api = createApiClient({ baseUrl: s.url, token: 'tok' });
      const r = await follow(t.signal, { connect: async () => api, until: (e) => e.length === 2 });
      assert.deepEqual(r.events, [
        { id: '1', event: 'log.created', data: { id: 'log_1' } },
        { id: '3', event: 'log.updated', data: { logId: 'log_1' } },
      ]);
      assert.deepEqual(s.lastEventIds, [undefined, '2']);
      assert.deepEqual(s.authorizations, ['Bearer tok', 'Bearer tok']);
      assert.deepEqual(r.statuses, ['The event stream ended; reconnecting...', `Reconnected to ${s.url}.`]);
    } finally {
      s.close();
    }
  });

  test('a new engine run (another instance) is asked for everything after 0', async (t) => {
    const s = await sseServer([(res) => res.end(event(5, 'a', 1)), (res) => res.write(event(1, 'b', 2))]);
    try {
      let run = 0;
      const r = await follow(t.signal, {
        connect: async () => createApiClient({ baseUrl: s.url, instance: `run-${++run}` }),
        until: (e) => e.length === 2,
      });
      assert.deepEqual(s.lastEventIds, [undefined, '0']);
      assert.deepEqual(
        r.events.map((e) => e.data),
        [1, 2],
      );
    } finally {
      s.close();
    }
  });

  test('waits through an outage (no answer, or an error the caller calls retriable), then resumes', async (t) => {
    const s = await sseServer([(res) => res.end(event(7, 'a', 'before')), (res) => res.write(event(8, 'a', 'after'))]);
    const closed = await closedPort();
    class NoEngineYet extends Error {}
    try {
      const live = createApiClient({ baseUrl: s.url });
      const down = createApiClient({ baseUrl: closed.url });
      const plan: (() => Promise<ApiClient>)[] = [
        async () => live,
        async () => down,
        async () => {
          throw new NoEngineYet();
        },
        async () => down,
        async () => live,
      ];
      let n = 0;
      const r = await follow(t.signal, {
        connect: () => plan[n++]!(),
        until: (e) => e.length === 2,
        isRetriable: (e) => e instanceof NoEngineYet,
      });
      assert.equal(r.connects, 5);
      assert.deepEqual(s.lastEventIds, [undefined, '7']);
      assert.deepEqual(
        r.events.map((e) => e.data),
        ['before', 'after'],
      );
      // One announcement per outage, however many attempts it took.
      assert.deepEqual(r.statuses, ['The event stream ended; reconnecting...', `Reconnected to ${s.url}.`]);
    } finally {
      s.close();
      await closed.release();
    }
  });

  test('a connection silent for longer than the idle timeout is dropped and reopened', async (t) => {
    const s = await sseServer([
      (res) => res.write(event(1, 'a', 'first')),
      (res) => res.write(event(2, 'a', 'second')),
    ]);
    try {
      const api = createApiClient({ baseUrl: s.url });
      const r = await follow(t.signal, { connect: async () => api, until: (e) => e.length === 2, idleTimeoutMs: 250 });
      assert.deepEqual(s.lastEventIds, [undefined, '1']);
      assert.deepEqual(
        r.events.map((e) => e.data),
        ['first', 'second'],
      );
    } finally {
      s.close();
    }
  });

  test("the first connection's failure is thrown, and so is a later one that is not retriable (401)", async (t) => {
    const closed = await closedPort();
    try {
      const never = () => false;
      const first = followEvents({
        signal: t.signal,
        connect: async () => createApiClient({ baseUrl: closed.url }),
        onEvent: () => undefined,
        onStatus: () => undefined,
      });
      await assert.rejects(first, (e) => e instanceof ApiError && e.code === NETWORK_ERROR);

      const s = await sseServer([(res) => res.end(event(1, 'a', 1))]);
      const unauthorized = createServer((_req, res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ success: false, error: { code: 'TOKEN_EXPIRED', message: 'The token has expired.' } }),
        );
      });
      unauthorized.listen(0, '127.0.0.1');
      await once(unauthorized, 'listening');
      try {
        let n = 0;
        const urls = [s.url, `http://127.0.0.1:${(unauthorized.address() as AddressInfo).port}`];
        const later = follow(t.signal, { connect: async () => createApiClient({ baseUrl: urls[n++]! }), until: never });
        await assert.rejects(later, (e) => e instanceof ApiError && e.status === 401 && e.code === 'TOKEN_EXPIRED');
      } finally {
        s.close();
        unauthorized.close();
      }
    } finally {
      await closed.release();
    }
  });
});

describe('followEvents against a real engine', () => {
  const tempDir = tempDirs('hookscope-follow-');
  const stops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const stop of stops) await stop();
  });

  test('typed log.created events; across an engine restart it catches up on what the new run published', async (t) => {
    const dir = await tempDir();
    let current = await startTestEngine({}, {}, dir);
    let running: typeof current | null = current;
    stops.push(() => running?.stop() ?? Promise.resolve());
    let run = 1;
    const ep = await current.endpoint({ name: 'follow', validationType: 'none' });
    class Stopped extends Error {}

    const stop = new AbortController();
    t.signal.addEventListener('abort', () => stop.abort(), { once: true });
    const received: ReceivedEvent[] = [];
    let connected!: () => void;
    let firstSeen!: () => void;
    const connectedOnce = new Promise<void>((r) => (connected = r));
    const seenFirst = new Promise<void>((r) => (firstSeen = r));
    const following = followEvents({
      signal: stop.signal,
      connect: async () => {
        if (!running) throw new Stopped();
        return createApiClient({ baseUrl: running.engine.apiUrl, token: running.token, instance: `run-${run}` });
      },
      isRetriable: (e) => e instanceof Stopped,
      onConnected: () => connected(),
      onStatus: () => undefined,
      onEvent: (e) => {
        if (e.event !== 'log.created') return;
        received.push(e);
        if (received.length === 1) firstSeen();
        if (received.length === 2) stop.abort();
      },
      initialBackoffMs: 5,
      maxBackoffMs: 20,
    });
    await connectedOnce;
    const one = await current.deliver(`/webhook/${ep}`, { body: 'one' });
    await seenFirst;

    running = null;
    await current.stop();
    current = await startTestEngine({}, {}, dir);
    run = 2;
    // Published before the follower is back: it must still arrive, through Last-Event-ID 0.
    const two = await current.deliver(`/webhook/${ep}`, { body: 'two' });
    running = current;
    await following;

    // (Event ids restart with each run, so they are not compared across the two.)
    assert.deepEqual(
      received.map((e) => [(e.data as { id: string }).id, (e.data as { endpointId: string }).endpointId]),
      [
        [one.body.data.id, ep],
        [two.body.data.id, ep],
      ],
    );
  });
});
