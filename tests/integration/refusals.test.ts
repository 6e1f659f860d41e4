import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { openSse, type SseStream } from '../helpers/sse-stream.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const at = (iso: string): number => Date.parse(iso);

/** Sends `n` deliveries, `concurrency` at a time; answers counted by status. */
async function burst(url: string, n: number, concurrency: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (sent < n) {
      sent += 1;
      const r = await fetch(url, { method: 'POST', body: 'x' });
      await r.arrayBuffer();
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

/**
 * Refusals (the rate limit's 429, an inactive endpoint's 410, a body over the
 * limit's 413) as the UI reads them: `GET /api/observability/refusals` and the
 * throttled `refusals.counted` event. The engine's clock stands still, so the
 * rate limit's bucket never refills: exactly `burst` deliveries pass, every
 * other one is refused, and the counts are known to the unit.
 */
describe('refusals: the read and the live event', () => {
  const clock = new ManualClock(at('2025-06-01T10:00:20.000Z'));
  let t: TestEngine;
  let bobToken: string;
  let mine: SseStream;
  let bobs: SseStream;
  let busy: string;
  let sleepy: string;
  let big: string;
  let flood: string;
  let bobEp: string;

  const read = async (qs = '', token?: string) => {
    const r = await t.api('GET', `/api/observability/refusals${qs}`, { token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data;
  };
  const status = async (endpointId: string, body = 'x'): Promise<number> =>
    (await t.deliver(`/webhook/${endpointId}`, { body })).status;
  const refusalEvents = (stream: SseStream, from = 0) =>
    stream
      .events()
      .slice(from)
      .filter((e) => e.event === 'refusals.counted')
      .map((e) => JSON.parse(e.data) as { total: number; endpoints: { endpointId: string }[] });

  before(async () => {
    t = await startTestEngine(
      {
        maxBodyBytes: 1024,
        sseHeartbeatMs: 50,
        receiver: { ...DEFAULT_CONFIG.receiver, rateLimit: { perSecond: 1, burst: 5 } },
      },
      { clock },
    );
    bobToken = await t.engine.issueToken('bob');
    mine = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    bobs = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${bobToken}` });
    await mine.waitForText(/retry: \d+/);
    await bobs.waitForText(/retry: \d+/);
    busy = await t.endpoint({ name: 'busy', validationType: 'none' });
    sleepy = await t.endpoint({ name: 'sleepy', validationType: 'none' });
    big = await t.endpoint({ name: 'big', validationType: 'none' });
    flood = await t.endpoint({ name: 'flood', validationType: 'none' });
    bobEp = await t.endpoint({ name: "bob's", validationType: 'none' }, bobToken);
    for (const [id, token] of [
      [sleepy, t.token],
      [bobEp, bobToken],
    ] as const) {
      assert.equal((await t.api('PATCH', `/api/endpoints/${id}`, { body: { isActive: false }, token })).status, 200);
    }
  });
  after(async () => {
    mine.close();
    bobs.close();
    await t.stop();
  });

  test('counts per reason and per endpoint, exact, with the time of the last one; scoped to the account', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push(await status(busy));
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    clock.set(at('2025-06-01T10:00:40.250Z'));
    assert.deepEqual([await status(sleepy), await status(sleepy)], [410, 410]);
    clock.set(at('2025-06-01T10:00:45.500Z'));
    assert.equal(await status(big, 'y'.repeat(2000)), 413);
    clock.set(at('2025-06-01T10:00:46.000Z'));
    assert.equal((await t.deliver(`/webhook/${bobEp}`, { body: 'x' })).status, 410);
    // Each account is told its own refusals, once they are all counted.
    await mine.waitFor((e) => e.event === 'refusals.counted' && JSON.parse(e.data).total === 6);
    await bobs.waitFor((e) => e.event === 'refusals.counted' && JSON.parse(e.data).total === 1);

    clock.set(at('2025-06-01T10:00:50.000Z'));
    const reason = (r: string, count: number, lastAt: string) => ({ reason: r, count, lastAt });
    const rateLimited = reason('rate_limited', 3, '2025-06-01T10:00:20.000Z');
    const inactive = reason('endpoint_inactive', 2, '2025-06-01T10:00:40.250Z');
    const tooLarge = reason('payload_too_large', 1, '2025-06-01T10:00:45.500Z');
    const expected = {
      window: '1m',
      from: '2025-06-01T09:59:00.000Z',
      to: '2025-06-01T10:01:00.000Z',
      total: 6,
      lastAt: '2025-06-01T10:00:45.500Z',
      reasons: [rateLimited, inactive, tooLarge],
      endpoints: [
        { endpointId: busy, total: 3, lastAt: rateLimited.lastAt, reasons: [rateLimited] },
        { endpointId: sleepy, total: 2, lastAt: inactive.lastAt, reasons: [inactive] },
        { endpointId: big, total: 1, lastAt: tooLarge.lastAt, reasons: [tooLarge] },
      ],
    };
    assert.deepEqual(await read(), expected, 'the default window is 1m');
    assert.deepEqual(await read('?window=1h'), { ...expected, window: '1h', from: '2025-06-01T09:00:00.000Z' });
    assert.deepEqual(await read(`?endpointId=${sleepy}`), {
      ...expected,
      total: 2,
      lastAt: inactive.lastAt,
      reasons: [inactive],
      endpoints: [expected.endpoints[1]],
    });

    const nothing = { ...expected, total: 0, lastAt: null, reasons: [], endpoints: [] };
    assert.deepEqual(await read(`?endpointId=${bobEp}`), nothing, "another account's endpoint matches nothing");
    const bobsLastAt = '2025-06-01T10:00:46.000Z';
    assert.deepEqual(await read('', bobToken), {
      ...expected,
      total: 1,
      lastAt: bobsLastAt,
      reasons: [reason('endpoint_inactive', 1, bobsLastAt)],
      endpoints: [
        { endpointId: bobEp, total: 1, lastAt: bobsLastAt, reasons: [reason('endpoint_inactive', 1, bobsLastAt)] },
      ],
    });

    // The metrics report counts the too-large delivery once, as the failed log it is; rejected are the unstored ones.
    const m = (await t.api('GET', '/api/observability/metrics?window=1h')).body.data;
    assert.deepEqual(m.totals, { received: 11, success: 5, failed: 1, rejected: 5 });
    assert.deepEqual(m.rejections, [
      { reason: 'rate_limited', count: 3 },
      { reason: 'endpoint_inactive', count: 2 },
    ]);

    // Whole minutes: at 10:01:59.999 the 1m window still starts at 10:00; at 10:02 it no longer holds them.
    clock.set(at('2025-06-01T10:01:59.999Z'));
    assert.equal((await read()).total, 6);
    clock.set(at('2025-06-01T10:02:00.000Z'));
    assert.deepEqual(await read(), {
      ...nothing,
      from: '2025-06-01T10:01:00.000Z',
      to: '2025-06-01T10:03:00.000Z',
    });
    assert.equal((await read('?window=1h')).total, 6);

    // A deleted endpoint drops out, as from the metrics report.
    assert.equal((await t.api('DELETE', `/api/endpoints/${big}`)).status, 200);
    assert.deepEqual(
      (await read('?window=1h')).reasons.map((r: { reason: string }) => r.reason),
      ['rate_limited', 'endpoint_inactive'],
    );
  });

  test('a bad window is a 400 naming the field', async () => {
    const r = await t.api('GET', '/api/observability/refusals?window=24h');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.message, 'Invalid query parameter "window": window must be one of: 1m, 1h.');
    assert.equal(r.body.error.details.issues[0].field, 'window');
    assert.equal((await t.api('GET', '/api/observability/refusals', { token: null })).status, 401);
  });

  test('a burst of 2,000 refusals is told in a handful of events, the last with the exact counts; Bob is told nothing of it', async () => {
    clock.set(at('2025-06-01T10:05:00.000Z'));
    const from = mine.events().length;
    const started = Date.now();
    const statuses = await burst(`${t.engine.receiverUrl}/webhook/${flood}`, 2000, 50);
    assert.deepEqual(statuses, { 200: 5, 429: 1995 });
    const last = await mine.waitFor(
      (e) => e.event === 'refusals.counted' && JSON.parse(e.data).total === 1995 && mine.events().indexOf(e) >= from,
    );
    const elapsedMs = Date.now() - started;

    // The last event's counts are exactly the read's.
    const counts = await read();
    assert.deepEqual(JSON.parse(last.data), counts);
    assert.deepEqual(counts.endpoints, [
      {
        endpointId: flood,
        total: 1995,
        lastAt: '2025-06-01T10:05:00.000Z',
        reasons: [{ reason: 'rate_limited', count: 1995, lastAt: '2025-06-01T10:05:00.000Z' }],
      },
    ]);

    // One event at once, then at most one a second: never one per refusal.
    const told = refusalEvents(mine, from);
    assert.ok(told.length >= 1, 'told at least once');
    assert.ok(
      told.length <= Math.ceil(elapsedMs / 1000) + 2,
      `${told.length} events in ${elapsedMs} ms: more than one a second`,
    );
    const totals = told.map((e) => e.total);
    assert.deepEqual(
      totals,
      [...totals].sort((a, b) => a - b),
      'counts only grow',
    );

    // A heartbeat on Bob's stream after the last event: anything sent to him would be there by now.
    await bobs.waitForText(/: heartbeat\n\n/, 10_000, bobs.raw().length);
    assert.ok(!bobs.raw().includes(flood), "the flood's endpoint never reached Bob's stream");
    for (const e of refusalEvents(bobs)) {
      assert.equal(e.total, 1);
      assert.deepEqual(
        e.endpoints.map((x) => x.endpointId),
        [bobEp],
      );
    }
    assert.ok(!mine.raw().includes(bobEp), "Bob's endpoint never reached my stream");
  });
});
