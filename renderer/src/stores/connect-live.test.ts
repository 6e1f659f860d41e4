// @vitest-environment node
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { closedPort } from '../../../tests/helpers/closed-port.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { memoryStorage } from '../test-engine.ts';
import { createAppStores } from './app-stores.ts';
import { connectLive } from './connect-live.ts';

/** connectLive against a real engine: what another client does reaches this page's stores through /api/events. */
describe('connectLive', () => {
  let t: TestEngine;
  let ep: string;

  beforeAll(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'live', validationType: 'none' });
  });
  afterAll(() => t.stop());

  /** The page's stores, and every request they make (method and path, with the request itself). */
  const makePage = () => {
    const requests: Request[] = [];
    const client = createApiClient({
      baseUrl: t.engine.apiUrl,
      token: t.token,
      fetch: (request) => {
        requests.push(request);
        return fetch(request);
      },
    });
    const asked = (path: string) => requests.filter((r) => new URL(r.url).pathname === path);
    return { stores: createAppStores(client, memoryStorage()), asked };
  };
  const deliver = async (body: string): Promise<string> => {
    const r = await t.deliver(`/webhook/${ep}`, { body, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(200);
    return (r.body as { data: { id: string } }).data.id;
  };

  test('follows only while signed in: nothing before, once while signed in, the stream closed after', async () => {
    const { stores, asked } = makePage();
    const live = stores.live.getState();
    let follows = 0;
    stores.live.setState({
      follow: (...args) => {
        follows++;
        return live.follow(...args);
      },
    });
    const stop = connectLive(stores);
    try {
      expect(follows).toBe(0);
      stores.session.setState({ status: 'signed-in' });
      expect(follows).toBe(1);
      await expect.poll(() => stores.live.getState().state).toBe('live');
      // Another change of the session (its account, a sign-in link waiting) is not a second stream.
      stores.session.setState({ owner: true });
      expect(follows).toBe(1);
      const [stream] = asked('/api/events');
      expect(stream?.signal.aborted).toBe(false);
      stores.session.setState({ status: 'signed-out' });
      expect(stream?.signal.aborted).toBe(true);
      expect(asked('/api/events')).toHaveLength(1);
    } finally {
      stop();
    }
  });

  test('each event reaches its stores: deliveries, the open delivery, its replay history, endpoints, settings', async () => {
    const { stores, asked } = makePage();
    stores.session.setState({ status: 'signed-in' });
    const stop = connectLive(stores);
    try {
      await expect.poll(() => stores.live.getState().state).toBe('live');
      // log.created: the row, on top of the list the connection's backfill loaded.
      const id = await deliver('{"n":1}');
      await expect.poll(() => stores.deliveries.getState().logs[0]?.id).toBe(id);

      await stores.selection.getState().select(id);
      await stores.replay.getState().open(id);
      const historyReads = asked(`/api/replay/${id}/history`).length;
      // replay.completed: another client's replay (the target is down) joins the open history as it is.
      expect((await t.api('POST', `/api/replay/${id}`, { body: { targetUrl: 'http://127.0.0.1:9/' } })).status).toBe(
        502,
      );
      await expect.poll(() => stores.replay.getState().history.length).toBe(1);
      expect(stores.replay.getState().history[0]?.error?.code).toBe('TARGET_UNREACHABLE');
      expect(asked(`/api/replay/${id}/history`)).toHaveLength(historyReads);

      // log.updated: the open delivery is read again (pinned elsewhere).
      expect((await t.api('PATCH', `/api/webhooks/logs/${id}`, { body: { pinned: true } })).status).toBe(200);
      await expect.poll(() => stores.selection.getState().detail?.pinned).toBe(true);

      // endpoint.changed: the endpoints are read again.
      const other = await t.endpoint({ name: 'made elsewhere', validationType: 'none' });
      await expect.poll(() => stores.endpoints.getState().endpoints.map((e) => e.id)).toContain(other);

      // settings.changed: settings on screen are read again.
      await stores.settings.getState().load();
      expect((await t.api('PATCH', '/api/settings', { body: { rateLimit: { perSecond: 50 } } })).status).toBe(200);
      await expect.poll(() => stores.settings.getState().settings?.rateLimit.perSecond).toBe(50);

      // log.deleted: the row goes, and the open delivery closes.
      expect((await t.api('DELETE', `/api/webhooks/logs/${id}`)).status).toBe(200);
      await expect.poll(() => stores.selection.getState().selectedId).toBe(null);
      expect(stores.deliveries.getState().logs.map((l) => l.id)).not.toContain(id);
    } finally {
      stop();
    }
  });
  test('log.updated "explainable" sets the open delivery\'s value without reading it again', async () => {
    const { stores, asked } = makePage();
    stores.session.setState({ status: 'signed-in' });
    const stop = connectLive(stores);
    const port = await closedPort();
    try {
      await expect.poll(() => stores.live.getState().state).toBe('live');
      const id = await deliver('{"n":2}');
      await stores.selection.getState().select(id);
      expect(stores.selection.getState().detail?.explainable).toBe(false);
      const reads = () => asked(`/api/webhooks/logs/${id}`).length;
      const before = reads();
      // Another client's replay fails: log.updated "replay" (read again), then "explainable" (carried).
      expect((await t.api('POST', `/api/replay/${id}`, { body: { targetUrl: port.url } })).status).toBe(502);
      // A pin afterwards: once it shows, every event before it was routed.
      expect((await t.api('PATCH', `/api/webhooks/logs/${id}`, { body: { pinned: true } })).status).toBe(200);
      await expect.poll(() => stores.selection.getState().detail?.pinned).toBe(true);
      expect(stores.selection.getState().detail?.explainable).toBe(true);
      expect(reads()).toBe(before + 2);
      expect(asked(`/api/replay/${id}/history`)).toHaveLength(0);
    } finally {
      stop();
      await port.release();
    }
  });

  test('refusals.counted sets the refusals counter with the exact counts; each connection reads them first', async () => {
    const { stores, asked } = makePage();
    const off = await t.endpoint({ name: 'switched off', validationType: 'none' });
    expect((await t.api('PATCH', `/api/endpoints/${off}`, { body: { isActive: false } })).status).toBe(200);
    stores.session.setState({ status: 'signed-in' });
    const stop = connectLive(stores);
    try {
      await expect.poll(() => stores.live.getState().state).toBe('live');
      await expect.poll(() => stores.refusals.getState().counts?.total).toBe(0);
      for (let i = 0; i < 2; i++) expect((await t.deliver(`/webhook/${off}`, { body: '{}' })).status).toBe(410);
      await expect.poll(() => stores.refusals.getState().counts?.total).toBe(2);
      expect(stores.refusals.getState().counts?.endpoints).toEqual([
        expect.objectContaining({ endpointId: off, total: 2, reasons: [expect.objectContaining({ count: 2 })] }),
      ]);
      // The event carried the counts: nothing read after the connection's own read.
      expect(asked('/api/observability/refusals')).toHaveLength(1);
    } finally {
      stop();
    }
  });
});

/** The engine stops under the page and starts again on its port: everything shown is read again. */
describe('connectLive across an engine restart', () => {
  test('back on the same port and data directory: live again, and the lists, counts and tunnel are read again', async () => {
    const dataDir = await makeTempDir();
    let engine: TestEngine | null = await startTestEngine({}, {}, dataDir);
    const port = Number(new URL(engine.engine.apiUrl).port);
    const requests: string[] = [];
    const client = createApiClient({
      baseUrl: engine.engine.apiUrl,
      token: engine.token,
      fetch: (request) => {
        requests.push(new URL(request.url).pathname);
        return fetch(request);
      },
    });
    const stores = createAppStores(client, memoryStorage());
    stores.session.setState({ status: 'signed-in' });
    const stop = connectLive(stores);
    const reads = (): string[] => requests.filter((p) => p !== '/api/events').sort();
    const everything = ['/api/endpoints', '/api/observability/refusals', '/api/tunnel', '/api/webhooks/logs'];
    try {
      await expect.poll(() => stores.live.getState().state).toBe('live');
      await expect.poll(reads).toEqual(everything);
      await engine.stop();
      engine = null;
      await expect.poll(() => stores.live.getState().state).toBe('reconnecting');
      requests.length = 0;
      engine = await startTestEngine({ apiPort: port }, {}, dataDir);
      await expect.poll(() => stores.live.getState().state, { timeout: 10_000 }).toBe('live');
      await expect.poll(reads).toEqual(everything);
    } finally {
      stop();
      await engine?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    // Two engine starts, a stop and a reconnection's backoff: past vitest's 5 s on a loaded machine.
  }, 30_000);
});
