// @vitest-environment node
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../server/api-client/api-client.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../../../tests/helpers/test-engine.ts';
import { createLiveStore, FIRST_RETRY_MS, STOPPED_AFTER_MS } from './live-store.ts';
import { manualTimers } from './manual-timers.ts';

/**
 * The live store against a real engine that is stopped and started again on the same
 * port and data directory: a short drop is "reconnecting", a long one with nothing
 * answering is "stopped", an engine that answers but refuses is never "stopped". Only
 * the verdict's timers are the test's; the follower's backoff and the HTTP are real.
 */
describe('the live store', () => {
  let engine: TestEngine | null = null;
  let follow: AbortController | null = null;
  let dataDir: string | null = null;
  afterEach(async () => {
    follow?.abort();
    await engine?.stop();
    engine = null;
    if (dataDir !== null) await rm(dataDir, { recursive: true, force: true });
    dataDir = null;
  });

  /** Stops the engine, keeping its data directory; `again()` starts it on the same port. */
  const restartable = async () => {
    const dir = await makeTempDir();
    dataDir = dir;
    engine = await startTestEngine({}, {}, dir);
    const port = Number(new URL(engine.engine.apiUrl).port);
    return {
      first: engine,
      stop: async () => {
        await engine?.stop();
        engine = null;
      },
      again: async () => {
        engine = await startTestEngine({ apiPort: port }, {}, dir);
      },
    };
  };

  const followWith = (token: string, apiUrl: string) => {
    const clock = manualTimers();
    const store = createLiveStore(createApiClient({ baseUrl: apiUrl, token }), clock.timers);
    let backfills = 0;
    follow = new AbortController();
    void store.getState().follow(
      follow.signal,
      () => undefined,
      () => backfills++,
    );
    return { store, clock, backfills: () => backfills };
  };

  test(`down longer than ${STOPPED_AFTER_MS} ms with nothing answering is "stopped"; back on its port, live and read again`, async () => {
    const e = await restartable();
    const { store, clock, backfills } = followWith(e.first.token, e.first.engine.apiUrl);
    await expect.poll(() => store.getState().state).toBe('live');
    expect(backfills()).toBe(1);

    await e.stop();
    await expect.poll(() => store.getState().state).toBe('reconnecting');
    clock.advance(STOPPED_AFTER_MS - 1);
    expect(store.getState().state).toBe('reconnecting');
    clock.advance(1);
    expect(store.getState()).toMatchObject({
      state: 'stopped',
      message: 'The engine does not answer; waiting for it to come back.',
    });

    await e.again();
    await expect.poll(() => store.getState().state, { timeout: 10_000 }).toBe('live');
    expect(backfills()).toBe(2);
    expect(clock.pending()).toEqual([]);
  });

  test('a drop that reconnects within the threshold stays a blip: never "stopped", the verdict cancelled', async () => {
    const e = await restartable();
    const { store, clock, backfills } = followWith(e.first.token, e.first.engine.apiUrl);
    await expect.poll(() => store.getState().state).toBe('live');
    await e.stop();
    await expect.poll(() => store.getState().state).toBe('reconnecting');
    expect(clock.pending()).toEqual([STOPPED_AFTER_MS]);
    await e.again();
    await expect.poll(() => store.getState().state, { timeout: 10_000 }).toBe('live');
    expect(clock.pending()).toEqual([]);
    clock.advance(STOPPED_AFTER_MS * 2);
    expect(store.getState().state).toBe('live');
    expect(backfills()).toBe(2);
  });

  test('an engine that answers but refuses the stream is "refused" for as long as it answers, "stopped" once it is gone', async () => {
    const e = await restartable();
    const { store, clock } = followWith('not-a-token', e.first.engine.apiUrl);
    await expect.poll(() => store.getState().state).toBe('refused');
    expect(store.getState().message).toMatch(/^The engine refuses live events: /);
    // Every refusal is an answer: past the threshold, attempt after attempt, it is still not "stopped".
    for (let i = 0; i < 3; i++) {
      expect(clock.pending()).toEqual([STOPPED_AFTER_MS, FIRST_RETRY_MS]);
      clock.advance(FIRST_RETRY_MS);
      // The next attempt's refusal arms the verdict afresh.
      await expect.poll(() => clock.pending()).toEqual([STOPPED_AFTER_MS, FIRST_RETRY_MS]);
      expect(store.getState().state).toBe('refused');
    }

    // Gone: the next attempts find nobody, and the last refusal's verdict comes due.
    await e.stop();
    clock.advance(FIRST_RETRY_MS);
    await expect.poll(() => clock.pending()).toEqual([STOPPED_AFTER_MS - FIRST_RETRY_MS, FIRST_RETRY_MS]);
    expect(store.getState().state).toBe('refused');
    expect(store.getState().message).toMatch(/^The engine is not answering: /);
    clock.advance(STOPPED_AFTER_MS - FIRST_RETRY_MS);
    expect(store.getState().state).toBe('stopped');
  });

  test('signed out (aborted): the follower ends and no verdict comes after it', async () => {
    const e = await restartable();
    const { store, clock } = followWith(e.first.token, e.first.engine.apiUrl);
    await expect.poll(() => store.getState().state).toBe('live');
    await e.stop();
    await expect.poll(() => store.getState().state).toBe('reconnecting');
    follow?.abort();
    await expect.poll(() => clock.pending()).toEqual([]);
    clock.advance(STOPPED_AFTER_MS);
    expect(store.getState().state).toBe('reconnecting');
  });
});
