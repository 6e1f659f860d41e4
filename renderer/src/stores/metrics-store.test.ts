// @vitest-environment node
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createMetricsStore, REFRESH_MS } from './metrics-store.ts';
import { manualTimers } from './manual-timers.ts';
import { createNoticesStore } from './notices-store.ts';

/** The metrics store against a real engine: its report per window, live refreshes at most every REFRESH_MS, errors in words. */
describe('the metrics store', () => {
  let t: TestEngine;
  let ep: string;

  beforeAll(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'orders', validationType: 'hmac_sha256', webhookSecret: 'metrics-store-secret' });
    expect((await t.deliver(`/webhook/${ep}`, { body: '{"n":1}' })).status).toBe(400); // unsigned: missing_header
  });
  afterAll(() => t.stop());

  const makeStore = (engineStopped = () => false) => {
    const notices = createNoticesStore();
    const asked: string[] = [];
    const client = createApiClient({
      baseUrl: t.engine.apiUrl,
      token: t.token,
      fetch: (req) => {
        asked.push(new URL(req.url).search);
        return fetch(req);
      },
    });
    const clock = manualTimers();
    return {
      store: createMetricsStore(client, notices.getState(), clock.timers, engineStopped),
      notices,
      asked,
      clock,
    };
  };

  test('opening loads the 24h window; another window asks again and replaces the report', async () => {
    const { store, asked } = makeStore();
    store.getState().show(true);
    await expect.poll(() => store.getState().report?.window).toBe('24h');
    expect(store.getState().report?.totals).toEqual({ received: 1, success: 0, failed: 1, rejected: 0 });
    expect(store.getState().report?.verificationFailures).toEqual([{ reason: 'missing_header', count: 1 }]);
    expect(store.getState().loadedAt).toBe(1_000_000);
    await store.getState().setWindow('7d');
    expect(store.getState().report?.window).toBe('7d');
    expect(store.getState().report?.series).toHaveLength(28);
    await store.getState().setWindow('7d'); // the same window: nothing asked
    expect(asked).toEqual(['?window=24h', '?window=7d']);
  });

  test('live changes refresh the open screen at most once per REFRESH_MS, the last one never lost', async () => {
    const { store, asked, clock } = makeStore();
    store.getState().changed(); // closed: costs nothing
    expect(clock.pending()).toEqual([]);
    await store.getState().load();
    store.getState().show(true);
    await expect.poll(() => asked.length).toBe(2);

    clock.advance(1000);
    store.getState().changed();
    store.getState().changed();
    store.getState().changed();
    expect(clock.pending()).toEqual([REFRESH_MS - 1000]);
    clock.advance(REFRESH_MS - 1001);
    expect(asked).toHaveLength(2);
    clock.advance(1);
    await expect.poll(() => asked.length).toBe(3);
    await expect.poll(() => store.getState().loading).toBe(false);

    // Long after the last request, a change is fetched at once (no wait).
    clock.advance(REFRESH_MS * 3);
    store.getState().changed();
    expect(clock.pending()).toEqual([0]);
    // Closing drops what was pending.
    store.getState().show(false);
    expect(clock.pending()).toEqual([]);
    expect(asked).toHaveLength(3);
  });

  test('a failed request is told in words and keeps the report shown', async () => {
    const { store, notices } = makeStore();
    await store.getState().load();
    const shown = store.getState().report;
    const broken = createMetricsStore(
      createApiClient({ baseUrl: t.engine.apiUrl, token: 'not-a-token' }),
      notices.getState(),
      manualTimers().timers,
    );
    broken.setState({ report: shown });
    await broken.getState().load();
    expect(broken.getState().report).toBe(shown);
    expect(broken.getState().loading).toBe(false);
    expect(notices.getState().notices.map((n) => n.text)).toEqual([
      'Loading metrics failed: The token is not valid for this Hookscope install. (INVALID_TOKEN)',
    ]);
  });

  test('while the engine is stopped nothing is asked: the last report and its time stay, with no notice; back, it reads', async () => {
    let stopped = false;
    const { store, asked, notices, clock } = makeStore(() => stopped);
    store.getState().show(true);
    await expect.poll(() => store.getState().report?.window).toBe('24h');
    const shown = store.getState().report;
    stopped = true;
    clock.advance(60_000);
    await store.getState().load();
    store.getState().show(false);
    store.getState().show(true);
    await store.getState().setWindow('7d');
    expect(asked).toEqual(['?window=24h']);
    expect(store.getState()).toMatchObject({ report: shown, loadedAt: 1_000_000, loading: false });
    expect(notices.getState().notices).toEqual([]);

    stopped = false;
    store.getState().changed(); // the backfill of the reconnection
    clock.advance(0);
    await expect.poll(() => store.getState().report?.window).toBe('7d');
    expect(asked).toEqual(['?window=24h', '?window=7d']);
  });
});
