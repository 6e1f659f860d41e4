import assert from 'node:assert/strict';
import pg from 'pg';
import { DEFAULT_CONFIG, type EngineConfig } from '../../server/config/config.ts';
import type { Scheduler } from '../../server/support/scheduler.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres, type FreshDatabase } from '../helpers/postgres.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * Two engines on one PostgreSQL database forwarding one endpoint's deliveries
 * (issue 23, "Several instances"): each delivery reaches the target once and in
 * order while both live, and none is lost when one stops or dies.
 */
after(stopTestPostgres);

/** Lanes and scans fast enough for a test; a target that hangs is never retried within it. */
function lanes(leaseMs: number): Partial<EngineConfig> {
  return {
    forward: { ...DEFAULT_CONFIG.forward, initialBackoffMs: 20, maxBackoffMs: 100, timeoutMs: 60_000 },
    forwardLanes: { leaseMs, scanIntervalMs: 50 },
  };
}

/** The system's timers until `halt()`: then none fires again, as in a process that died. */
class HaltableScheduler implements Scheduler {
  private halted = false;
  private readonly pending = new Set<NodeJS.Timeout>();

  setTimeout(fn: () => void, ms: number): unknown {
    const handle = setTimeout(() => {
      this.pending.delete(handle);
      if (!this.halted) fn();
    }, ms);
    this.pending.add(handle);
    return handle;
  }

  clearTimeout(handle: unknown): void {
    clearTimeout(handle as NodeJS.Timeout);
    this.pending.delete(handle as NodeJS.Timeout);
  }

  halt(): void {
    this.halted = true;
    for (const handle of this.pending) clearTimeout(handle);
    this.pending.clear();
  }
}

interface Pair {
  database: FreshDatabase;
  target: TargetServer;
  engines: TestEngine[];
}

async function withPair(fn: (pair: Pair) => Promise<void>): Promise<void> {
  const pair: Pair = { database: await freshDatabase(), target: await TargetServer.start(), engines: [] };
  try {
    await fn(pair);
  } finally {
    for (const e of pair.engines) await e.stop();
    await pair.target.close();
    await pair.database.drop();
  }
}

async function startOn(pair: Pair, config: Partial<EngineConfig>, scheduler?: Scheduler): Promise<TestEngine> {
  const engine = await startTestEngine(
    { ...config, databaseUrl: pair.database.url },
    scheduler ? { forwardScheduler: scheduler } : {},
  );
  pair.engines.push(engine);
  return engine;
}

async function deliver(engine: TestEngine, endpointId: string, body: string): Promise<void> {
  const r = await engine.deliver(`/webhook/${endpointId}`, { body, headers: { 'content-type': 'text/plain' } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

async function pending(engine: TestEngine, endpointId: string): Promise<number> {
  const r = await engine.api('GET', `/api/endpoints/${endpointId}/forward`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.pending as number;
}

/** The endpoint's lane as the database holds it (one endpoint in these tests). */
async function lease(pair: Pair): Promise<{ owner: string; leaseUntil: number }> {
  const client = new pg.Client({ connectionString: pair.database.url });
  await client.connect();
  try {
    const r = await client.query<{ owner: string; lease_until: string }>(
      'SELECT owner, lease_until FROM forward_lanes',
    );
    assert.equal(r.rows.length, 1);
    return { owner: r.rows[0]!.owner, leaseUntil: Number(r.rows[0]!.lease_until) };
  } finally {
    await client.end();
  }
}

const bodies = (target: TargetServer) => target.received.map((r) => r.body.toString());
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `delivery ${from + i}`);

describe('forwarding with two engines on one database', () => {
  test('a burst spread over both receivers reaches the target exactly once each, in order', async () => {
    await withPair(async (pair) => {
      const a = await startOn(pair, lanes(5_000));
      const ep = await a.endpoint({ name: 'shared', validationType: 'none', forwardUrl: pair.target.url });
      const b = await startOn(pair, lanes(5_000));
      const sent = numbered(1, 30);
      // Each acknowledged before the next is sent: the order of arrival is the queue's order.
      for (const [i, body] of sent.entries()) await deliver(i % 3 === 0 ? b : a, ep, body);
      await pair.target.waitForCount(sent.length);
      // An item leaves the queue after its attempt: a second engine sending it would have done so by then.
      await waitFor('the queue to be empty', async () => (await pending(a, ep)) === 0);
      assert.deepEqual(bodies(pair.target), sent);
    });
  });

  for (const ending of ['stops', 'dies'] as const) {
    test(`when the engine working the lane ${ending} mid-burst, the other delivers everything queued, in order`, async () => {
      await withPair(async (pair) => {
        // Stopping releases the lane at once: a lease far longer than the test shows the release is what frees it.
        // A death releases nothing: the lease must run out.
        const config = lanes(ending === 'stops' ? 600_000 : 300);
        const scheduler = new HaltableScheduler();
        const a = await startOn(pair, config, scheduler);
        const ep = await a.endpoint({ name: 'shared', validationType: 'none', forwardUrl: pair.target.url });
        // The first attempt at delivery 3 never gets an answer: A is stuck there holding the lane.
        let hungOnce = false;
        pair.target.respond = (req) => {
          if (req.body.toString() === 'delivery 3' && !hungOnce) {
            hungOnce = true;
            return { hang: true };
          }
          return { status: 200 };
        };
        for (const body of numbered(1, 5)) await deliver(a, ep, body);
        await pair.target.waitForCount(3);
        const b = await startOn(pair, config);
        // B finds the lane held (at its start, its scans, and its own receiver's wake-ups).
        for (const body of numbered(6, 7)) await deliver(b, ep, body);
        await deliver(a, ep, 'delivery 8');
        for (const body of numbered(9, 10)) await deliver(b, ep, body);
        if (ending === 'stops') {
          pair.engines.splice(pair.engines.indexOf(a), 1);
          await a.stop();
        } else {
          // A renews its lease while its attempt hangs: a whole lease passes and the lane is still A's.
          const first = await lease(pair);
          const renewed = await waitFor('A to renew its lease', async () => {
            const now = await lease(pair);
            return now.leaseUntil > first.leaseUntil + 300 && now;
          });
          assert.equal(renewed.owner, first.owner);
          assert.equal(pair.target.received.length, 3, 'B has not taken the lane over');
          // No more heartbeats, retries or scans from A, its request still hanging: nothing is released.
          scheduler.halt();
        }
        await pair.target.waitForCount(11);
        // Delivery 3's first attempt arrived but was never answered: it is sent again, then the rest in order.
        assert.deepEqual(bodies(pair.target), [...numbered(1, 3), ...numbered(3, 10)]);
        await waitFor('the queue to be empty', async () => (await pending(b, ep)) === 0);
        assert.equal(pair.target.received.length, 11);
      });
    });
  }
});
