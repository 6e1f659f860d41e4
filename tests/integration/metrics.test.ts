import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from '../helpers/node-test.ts';
import Stripe from 'stripe';
import { ManualClock } from '../../server/support/clock.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const stripe = new Stripe('sk_test_unused');
const STRIPE_SECRET = 'whsec_metrics_test_secret';
const HMAC_SECRET = 'metrics-hmac-secret';
const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();

interface Counts {
  received: number;
  success: number;
  failed: number;
  rejected: number;
}
const counts = (success: number, failed: number, rejected: number): Counts => ({
  received: success + failed + rejected,
  success,
  failed,
  rejected,
});
const ZERO = counts(0, 0, 0);
const pick = (c: Counts): Counts => ({
  received: c.received,
  success: c.success,
  failed: c.failed,
  rejected: c.rejected,
});

/**
 * One known mix of deliveries, placed in time by moving the engine's clock.
 * The metrics are asked for at 2025-01-15T12:30Z, so the 24h window runs from
 * 2025-01-14T13:00Z (bucket 0) to 2025-01-15T13:00Z (bucket 23 still filling).
 */
describe('metrics', () => {
  const clock = new ManualClock(at('2025-01-14T12:00:00.000Z'));
  let t: TestEngine;
  let alpha: string; // stripe
  let bravo: string; // hmac_sha256, switched off twice (rejected deliveries)
  let charlie: string; // deleted before the metrics are read

  const body = (bytes: number, fill = 'x'): string => fill.repeat(bytes);
  const stripeSigned = async (bytes: number, opts: { secret?: string; ageSeconds?: number } = {}) => {
    const payload = body(bytes);
    const header = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? STRIPE_SECRET,
      timestamp: Math.floor(clock.now() / 1000) - (opts.ageSeconds ?? 0),
    });
    return t.deliver(`/webhook/${alpha}`, { body: payload, headers: { 'stripe-signature': header } });
  };
  const hmacSigned = async (bytes: number) => {
    const payload = body(bytes);
    const sig = createHmac('sha256', HMAC_SECRET).update(payload).digest('hex');
    return t.deliver(`/webhook/${bravo}`, { body: payload, headers: { 'x-webhook-signature': sig } });
  };
  const setActive = async (id: string, isActive: boolean) => {
    const r = await t.api('PATCH', `/api/endpoints/${id}`, { body: { isActive } });
    assert.equal(r.status, 200);
  };
  const metrics = async (qs = '', token?: string) => {
    const r = await t.api('GET', `/api/observability/metrics${qs}`, { token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data;
  };
  const expectStatus = async (p: Promise<{ status: number }>, status: number) => assert.equal((await p).status, status);

  before(async () => {
    t = await startTestEngine({ maxBodyBytes: 1024 }, { clock });
    alpha = await t.endpoint({ name: 'alpha', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
    bravo = await t.endpoint({ name: 'bravo', validationType: 'hmac_sha256', webhookSecret: HMAC_SECRET });
    charlie = await t.endpoint({ name: 'charlie', validationType: 'none' });

    // A millisecond before the 24h window: only the longer windows see it.
    clock.set(at('2025-01-14T12:59:59.999Z'));
    await expectStatus(stripeSigned(10), 200);
    // The first instant of the 24h window (bucket 0).
    clock.set(at('2025-01-14T13:00:00.000Z'));
    await expectStatus(stripeSigned(100), 200);
    // The last instant of bucket 20: a stale Stripe timestamp and an over-limit body.
    clock.set(at('2025-01-15T09:59:59.999Z'));
    await expectStatus(stripeSigned(200, { ageSeconds: 600 }), 400); // timestamp_outside_tolerance
    await expectStatus(t.deliver(`/webhook/${bravo}`, { body: body(2000) }), 413); // payload_too_large, refused before reading: size 0
    // Bucket 22: bravo is off for a moment.
    clock.set(at('2025-01-15T11:15:00.000Z'));
    await setActive(bravo, false);
    await expectStatus(hmacSigned(70), 410);
    await setActive(bravo, true);
    // Bucket 23.
    clock.set(at('2025-01-15T12:10:00.000Z'));
    await expectStatus(stripeSigned(300), 200);
    await expectStatus(stripeSigned(400), 200);
    await expectStatus(stripeSigned(500, { secret: 'whsec_someone_else' }), 400); // no_matching_signature
    await expectStatus(t.deliver(`/webhook/${alpha}`, { body: body(600) }), 400); // missing_header
    await expectStatus(hmacSigned(700), 200);
    await expectStatus(t.deliver(`/webhook/${bravo}`, { body: body(50) }), 400); // missing_header
    await expectStatus(t.deliver(`/webhook/${charlie}`, { body: body(999) }), 200);
    clock.set(at('2025-01-15T12:20:30.500Z'));
    await setActive(bravo, false);
    await expectStatus(hmacSigned(70), 410);
    await expectStatus(hmacSigned(70), 410);
    await setActive(charlie, false);
    await expectStatus(t.deliver(`/webhook/${charlie}`, { body: 'x' }), 410);
    // Deleting an endpoint deletes its logs: it drops out of the metrics, rejections included.
    await expectStatus(t.api('DELETE', `/api/endpoints/${charlie}`), 200);

    clock.set(at('2025-01-15T12:30:00.000Z'));
  });
  after(() => t.stop());

  test('24h: the window, exact totals and success rate', async () => {
    const m = await metrics('?window=24h');
    assert.equal(m.window, '24h');
    assert.equal(m.from, '2025-01-14T13:00:00.000Z');
    assert.equal(m.to, '2025-01-15T13:00:00.000Z');
    assert.equal(m.bucketSeconds, 3600);
    assert.deepEqual(m.totals, counts(4, 5, 3));
    assert.equal(m.successRate, 4 / 12);
  });

  test('the default window is 24h', async () => {
    const m = await metrics();
    assert.equal(m.window, '24h');
    assert.deepEqual(m.totals, counts(4, 5, 3));
  });

  test('per endpoint: counts, success rate and the latest delivery, deleted endpoints left out', async () => {
    const m = await metrics('?window=24h');
    assert.deepEqual(m.endpoints, [
      {
        endpointId: alpha,
        name: 'alpha',
        ...counts(3, 3, 0),
        successRate: 0.5,
        lastReceivedAt: '2025-01-15T12:10:00.000Z',
      },
      {
        endpointId: bravo,
        name: 'bravo',
        ...counts(1, 2, 3),
        successRate: 1 / 6,
        lastReceivedAt: '2025-01-15T12:20:30.500Z',
      },
    ]);
  });

  test('series: every bucket, zeros included, each delivery in its bucket', async () => {
    const m = await metrics('?window=24h');
    const start = at('2025-01-14T13:00:00.000Z');
    const expected = Array.from({ length: 24 }, (_, i) => ({ t: iso(start + i * 3_600_000), ...ZERO }));
    expected[0] = { ...expected[0]!, ...counts(1, 0, 0) };
    expected[20] = { ...expected[20]!, ...counts(0, 2, 0) };
    expected[22] = { ...expected[22]!, ...counts(0, 0, 1) };
    expected[23] = { ...expected[23]!, ...counts(3, 3, 2) };
    assert.deepEqual(m.series, expected);
    assert.equal(expected[23].t, '2025-01-15T12:00:00.000Z');
  });

  test('verification failures by reason, most first', async () => {
    const m = await metrics('?window=24h');
    assert.deepEqual(m.verificationFailures, [
      { reason: 'missing_header', count: 2 },
      { reason: 'no_matching_signature', count: 1 },
      { reason: 'payload_too_large', count: 1 },
      { reason: 'timestamp_outside_tolerance', count: 1 },
    ]);
  });

  test('payload sizes of the stored deliveries (bytes received; the over-limit one, refused before reading, counts 0)', async () => {
    const m = await metrics('?window=24h');
    // 0 50 100 200 300 400 500 600 700: nearest-rank p50 is the 5th, p95 the 9th.
    assert.deepEqual(m.payloadSizes, { count: 9, min: 0, max: 700, avg: 2850 / 9, p50: 300, p95: 700 });
  });

  test('1h: minute buckets; older deliveries are excluded', async () => {
    const m = await metrics('?window=1h');
    assert.equal(m.from, '2025-01-15T11:31:00.000Z');
    assert.equal(m.to, '2025-01-15T12:31:00.000Z');
    assert.equal(m.bucketSeconds, 60);
    assert.equal(m.series.length, 60);
    assert.deepEqual(m.totals, counts(3, 3, 2));
    assert.deepEqual(pick(m.series[39]), counts(3, 3, 0));
    assert.equal(m.series[39].t, '2025-01-15T12:10:00.000Z');
    assert.deepEqual(pick(m.series[49]), counts(0, 0, 2));
    const busy = m.series.filter((p: Counts) => p.received > 0).length;
    assert.equal(busy, 2);
    assert.deepEqual(m.payloadSizes, { count: 6, min: 50, max: 700, avg: 2550 / 6, p50: 400, p95: 700 });
    assert.deepEqual(
      m.endpoints.map((e: Counts & { name: string }) => [e.name, pick(e)]),
      [
        ['alpha', counts(2, 2, 0)],
        ['bravo', counts(1, 1, 2)],
      ],
    );
  });

  test('7d and 30d: six-hour and day buckets, reaching the delivery before the 24h window', async () => {
    const week = await metrics('?window=7d');
    assert.equal(week.bucketSeconds, 6 * 3600);
    assert.equal(week.series.length, 28);
    assert.equal(week.from, '2025-01-08T18:00:00.000Z');
    assert.equal(week.to, '2025-01-15T18:00:00.000Z');
    assert.deepEqual(week.totals, counts(5, 5, 3));
    assert.equal(week.series[23].t, '2025-01-14T12:00:00.000Z');
    assert.deepEqual(pick(week.series[23]), counts(2, 0, 0));
    assert.deepEqual(pick(week.series[26]), counts(0, 2, 1));
    assert.deepEqual(pick(week.series[27]), counts(3, 3, 2));
    assert.equal(week.payloadSizes.count, 10);
    assert.equal(week.payloadSizes.min, 0);

    const month = await metrics('?window=30d');
    assert.equal(month.bucketSeconds, 86_400);
    assert.equal(month.series.length, 30);
    assert.equal(month.from, '2024-12-17T00:00:00.000Z');
    assert.equal(month.to, '2025-01-16T00:00:00.000Z');
    assert.deepEqual(pick(month.series[28]), counts(2, 0, 0));
    assert.deepEqual(pick(month.series[29]), counts(3, 5, 3));
  });

  test('endpointId narrows everything to that endpoint', async () => {
    const m = await metrics(`?window=24h&endpointId=${bravo}`);
    assert.deepEqual(m.totals, counts(1, 2, 3));
    assert.equal(m.successRate, 1 / 6);
    assert.deepEqual(
      m.endpoints.map((e: { endpointId: string }) => e.endpointId),
      [bravo],
    );
    assert.deepEqual(m.verificationFailures, [
      { reason: 'missing_header', count: 1 },
      { reason: 'payload_too_large', count: 1 },
    ]);
    assert.deepEqual(m.payloadSizes, { count: 3, min: 0, max: 700, avg: 750 / 3, p50: 50, p95: 700 });
    const gone = await metrics(`?endpointId=${charlie}`);
    assert.deepEqual(gone.totals, ZERO);
    assert.deepEqual(gone.endpoints, []);
  });

  test('the window moves with the clock: later, the same deliveries fall out', async () => {
    clock.set(at('2025-01-16T13:00:00.000Z'));
    try {
      const m = await metrics('?window=24h');
      assert.equal(m.from, '2025-01-15T14:00:00.000Z');
      assert.deepEqual(m.totals, ZERO);
      assert.equal(m.successRate, null);
      assert.deepEqual(m.payloadSizes, { count: 0, min: null, max: null, avg: null, p50: null, p95: null });
      assert.deepEqual(
        m.endpoints.map((e: { successRate: unknown; lastReceivedAt: unknown }) => [e.successRate, e.lastReceivedAt]),
        [
          [null, null],
          [null, null],
        ],
      );
    } finally {
      clock.set(at('2025-01-15T12:30:00.000Z'));
    }
  });

  test("another account sees zeros, even naming this account's endpoint", async () => {
    const other = await t.engine.issueToken('teammate');
    for (const qs of ['?window=24h', `?window=30d&endpointId=${bravo}`]) {
      const m = await metrics(qs, other);
      assert.deepEqual(m.totals, ZERO, qs);
      assert.equal(m.successRate, null);
      assert.deepEqual(m.endpoints, []);
      assert.ok(m.series.length > 0 && m.series.every((p: Counts) => p.received === 0));
      assert.deepEqual(m.verificationFailures, []);
      assert.equal(m.payloadSizes.count, 0);
    }
  });

  test('a bad window or endpointId is 400 naming the field; no token is 401', async () => {
    for (const [qs, field] of [
      ['?window=2h', 'window'],
      ['?window=', 'window'],
      ['?window=24H', 'window'],
      ['?window=1h&window=24h', 'window'],
      ['?endpointId=', 'endpointId'],
      ['?endpointId=a&endpointId=b', 'endpointId'],
    ]) {
      const r = await t.api('GET', `/api/observability/metrics${qs}`);
      assert.equal(r.status, 400, qs);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.ok(r.body.error.message.includes(field), `${qs}: ${r.body.error.message}`);
      assert.equal(r.body.error.details.issues[0].field, field, qs);
    }
    assert.match((await t.api('GET', '/api/observability/metrics?window=2h')).body.error.message, /1h, 24h, 7d, 30d/);
    assert.equal((await t.api('GET', '/api/observability/metrics', { token: null })).status, 401);
  });
});

describe('metrics: rejected counts across a restart', () => {
  const clock = new ManualClock(at('2025-03-01T08:00:00.000Z'));
  let dir: string;
  let t: TestEngine | undefined;
  before(async () => {
    dir = await makeTempDir();
  });
  after(async () => {
    await t?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('survive stopping and starting the engine on the same data directory', async () => {
    t = await startTestEngine({}, { clock }, dir);
    const ep = await t.endpoint({ name: 'sleepy', validationType: 'none' });
    await t.deliver(`/webhook/${ep}`, { body: 'stored' });
    await t.api('PATCH', `/api/endpoints/${ep}`, { body: { isActive: false } });
    clock.set(at('2025-03-01T08:05:10.000Z'));
    assert.equal((await t.deliver(`/webhook/${ep}`, { body: 'refused' })).status, 410);
    assert.equal((await t.deliver(`/webhook/${ep}`, { body: 'refused' })).status, 410);
    clock.set(at('2025-03-01T08:07:45.250Z'));
    assert.equal((await t.deliver(`/webhook/${ep}`, { body: 'refused' })).status, 410);
    const before = (await t.api('GET', '/api/observability/metrics?window=1h')).body.data;
    assert.deepEqual(before.totals, counts(1, 0, 3));
    await t.stop();
    t = undefined;

    clock.set(at('2025-03-01T08:30:00.000Z'));
    t = await startTestEngine({}, { clock }, dir);
    const m = (await t.api('GET', '/api/observability/metrics?window=1h')).body.data;
    assert.deepEqual(m.totals, counts(1, 0, 3));
    assert.deepEqual(m.endpoints, [
      {
        endpointId: ep,
        name: 'sleepy',
        ...counts(1, 0, 3),
        successRate: 0.25,
        lastReceivedAt: '2025-03-01T08:07:45.250Z',
      },
    ]);
    // 1h at 08:30 starts at 07:31: 08:05 is bucket 34, 08:07 bucket 36.
    assert.deepEqual(pick(m.series[34]), counts(0, 0, 2));
    assert.deepEqual(pick(m.series[36]), counts(0, 0, 1));
    assert.deepEqual(pick(m.series[29]), counts(1, 0, 0));
  });
});
