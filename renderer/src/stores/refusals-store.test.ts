// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { closedPort } from '../../../tests/helpers/closed-port.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import type { Refusals } from '../lib/refusal-lines.ts';
import { manualTimers } from './manual-timers.ts';
import { createNoticesStore } from './notices-store.ts';
import { createRefusalsStore, REREAD_SLACK_MS } from './refusals-store.ts';

/** The refusals store against a real engine: exact counts, events replacing them, a re-read when the minute ends. */
describe('the refusals store', () => {
  let t: TestEngine;
  let off: string;

  beforeAll(async () => {
    t = await startTestEngine();
    off = await t.endpoint({ name: 'legacy', validationType: 'none' });
    expect((await t.api('PATCH', `/api/endpoints/${off}`, { body: { isActive: false } })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await t.deliver(`/webhook/${off}`, { body: '{}' })).status).toBe(410);
  });
  afterAll(() => t.stop());

  const makeStore = (stopped = () => false) => {
    const notices = createNoticesStore();
    const asked: string[] = [];
    const client = createApiClient({
      baseUrl: t.engine.apiUrl,
      token: t.token,
      fetch: (req) => {
        asked.push(new URL(req.url).pathname + new URL(req.url).search);
        return fetch(req);
      },
    });
    // The page's clock is the engine's here: the re-read is timed from the engine's `to`.
    const clock = manualTimers(Date.now());
    return {
      store: createRefusalsStore(client, notices.getState(), clock.timers, stopped),
      notices,
      asked,
      clock,
    };
  };

  test("load reads the last minute's exact counts, and asks again when the engine's minute ends", async () => {
    const { store, asked, clock } = makeStore();
    const start = clock.timers.now();
    await store.getState().load();
    const counts = store.getState().counts!;
    expect(counts).toMatchObject({
      window: '1m',
      total: 3,
      reasons: [{ reason: 'endpoint_inactive', count: 3 }],
      endpoints: [{ endpointId: off, total: 3, reasons: [{ reason: 'endpoint_inactive', count: 3 }] }],
    });
    expect(asked).toEqual(['/api/observability/refusals?window=1m']);
    expect(clock.pending()).toEqual([Date.parse(counts.to) - start + REREAD_SLACK_MS]);
    clock.advance(clock.pending()[0]!);
    expect(asked).toHaveLength(2);
    await expect.poll(() => clock.pending()).toHaveLength(1);
  });

  test('an event replaces the counts, and an answer asked before it is dropped', async () => {
    const { store, clock } = makeStore();
    const pushed: Refusals = {
      window: '1m',
      from: '2026-01-01T10:00:00.000Z',
      to: '2026-01-01T10:02:00.000Z',
      total: 0,
      lastAt: null,
      reasons: [],
      endpoints: [],
    };
    const loading = store.getState().load();
    store.getState().counted(pushed);
    await loading;
    expect(store.getState().counts).toEqual(pushed);
    // Nothing refused: nothing to read again when the minute ends.
    expect(clock.pending()).toEqual([]);
  });

  test('while the engine is stopped the timed re-read is skipped; a failed load is said in words', async () => {
    let stopped = false;
    const { store, asked, clock, notices } = makeStore(() => stopped);
    await store.getState().load();
    stopped = true;
    clock.advance(clock.pending()[0]!);
    expect(asked).toHaveLength(1);
    expect(store.getState().counts?.total).toBe(3);

    const port = await closedPort();
    try {
      const gone = createRefusalsStore(
        createApiClient({ baseUrl: port.url, token: t.token }),
        notices.getState(),
        clock.timers,
      );
      await gone.getState().load();
      expect(gone.getState().counts).toBe(null);
      const said = notices.getState().notices.map((n) => n.text);
      expect(said).toHaveLength(1);
      // How the connection failed is the kernel's word; the sentence around it is the page's.
      expect(said[0]).toMatch(
        new RegExp(`^Reading the refused deliveries failed: ${port.url} does not answer: .+ \\(NETWORK_ERROR\\)$`),
      );
    } finally {
      await port.release();
    }
  });
});
