import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { DEFAULT_CONFIG, type EngineConfig } from '../../server/config/config.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { postgresBackend } from '../../server/storage/postgres/postgres-backend.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { cryptoRandom } from '../../server/support/random.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres, type FreshDatabase } from '../helpers/postgres.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * The per-endpoint rate limit with several instances on one PostgreSQL (issue 23,
 * "Several instances"): each instance takes its share of the limit, 1/n for n live
 * instances, counted by heartbeats in the `instances` table. The clock is injected
 * and never moves during a burst, so the number let through is exact.
 */
after(stopTestPostgres);

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const LIMIT = { perSecond: 10, burst: 20 };
const REFUSAL = `This endpoint receives at most 10 deliveries per second (bursts of 20); retry in 1 s.`;

/** Beats every 20 ms of real time; a beat counts for a minute of the injected clock, far more than a test moves it. */
const overrides = (url: string): Partial<EngineConfig> => ({
  databaseUrl: url,
  receiver: { ...DEFAULT_CONFIG.receiver, rateLimit: LIMIT },
  instances: { heartbeatMs: 20, graceMs: 60_000 },
});

interface Team {
  db: FreshDatabase;
  clock: ManualClock;
  engines: TestEngine[];
}

async function withTeam(size: number, fn: (team: Team) => Promise<void>): Promise<void> {
  const team: Team = { db: await freshDatabase(), clock: new ManualClock(T0), engines: [] };
  try {
    for (let i = 0; i < size; i++)
      team.engines.push(await startTestEngine(overrides(team.db.url), { clock: team.clock }));
    await waitFor(`${size} instances seeing each other`, () =>
      team.engines.every((t) => t.engine.instances.liveCount() === size),
    );
    await fn(team);
  } finally {
    for (const t of team.engines) await t.stop();
    await team.db.drop();
  }
}

/** Sends `count` deliveries in turn, each to the engine `pick(i)` names; answers how many each engine accepted. */
async function burst(
  engines: TestEngine[],
  endpointId: string,
  count: number,
  pick: (i: number) => number,
): Promise<number[]> {
  const accepted = engines.map(() => 0);
  for (let i = 0; i < count; i++) {
    const k = pick(i);
    const r = await engines[k]!.deliver(`/webhook/${endpointId}`, { body: '{}' });
    if (r.status === 200) accepted[k]! += 1;
    else {
      assert.equal(r.status, 429);
      assert.equal(r.headers.get('retry-after'), '1');
      assert.deepEqual(r.body, {
        success: false,
        error: { code: 'RATE_LIMITED', message: REFUSAL, details: { retryAfterSeconds: 1 } },
      });
    }
  }
  return accepted;
}

async function rowsIn(db: FreshDatabase): Promise<number> {
  const pg = new PostgresDatabase({ url: db.url, onError: () => undefined });
  try {
    const [row] = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM instances');
    return row!.n;
  } finally {
    await pg.close();
  }
}

describe('the rate limit across instances on one PostgreSQL', () => {
  test('an even split lets through exactly the limit; a 90/10 split less, never more; refusals are counted once', async () => {
    await withTeam(2, async ({ engines, clock }) => {
      const [a, b] = engines as [TestEngine, TestEngine];
      const even = await a.endpoint({ name: 'even', validationType: 'none' });
      // 40 at once, alternating: each instance holds half the burst (10), so 20 pass, as on one engine.
      assert.deepEqual(await burst(engines, even, 40, (i) => i % 2), [10, 10]);
      // A second later each has refilled half the rate (5): 10 of the next 30.
      clock.advance(1000);
      assert.deepEqual(await burst(engines, even, 30, (i) => i % 2), [5, 5]);

      // 90/10: A's 36 meet its 10 tokens, B's 4 all pass: 14 of a burst of 20 (30% under).
      const skewed = await b.endpoint({ name: 'skewed', validationType: 'none' });
      assert.deepEqual(await burst(engines, skewed, 40, (i) => (i % 10 === 9 ? 1 : 0)), [10, 4]);

      // Every refusal, on either instance, is counted once in the shared metrics.
      const refused = 20 + 20 + 26;
      const totals = await waitFor('the refusals counted', async () => {
        const t = (await a.api('GET', '/api/observability/metrics?window=1h')).body.data.totals;
        return t.rejected === refused ? t : undefined;
      });
      assert.deepEqual(totals, { received: 110, success: 20 + 10 + 14, failed: 0, rejected: refused });
    });
  });

  test('a clean stop removes the row: the survivor takes the whole limit back', async () => {
    await withTeam(2, async ({ db, engines, clock }) => {
      const [a, b] = engines as [TestEngine, TestEngine];
      const id = await a.endpoint({ name: 'survivor', validationType: 'none' });
      assert.deepEqual(await burst([a], id, 15, () => 0), [10]);
      await b.stop();
      engines.pop();
      assert.equal(await rowsIn(db), 1);
      await waitFor('A alone', () => a.engine.instances.liveCount() === 1);
      // Two seconds refill a whole bucket of 20 (one instance), not 10 (half).
      clock.advance(2000);
      assert.deepEqual(await burst([a], id, 25, () => 0), [20]);
    });
  });

  test('an instance whose heartbeat stopped counts until the grace has passed, then no longer', async () => {
    await withTeam(1, async ({ db, engines, clock }) => {
      const [a] = engines as [TestEngine];
      const pg = new PostgresDatabase({ url: db.url, onError: () => undefined });
      try {
        // An instance that beat once, now, and never again (killed -9).
        await pg.query('INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, $2, $2)', ['inst_dead', T0]);
        await waitFor('A counting the dead instance', () => a.engine.instances.liveCount() === 2);
        const id = await a.endpoint({ name: 'ghost', validationType: 'none' });
        assert.deepEqual(await burst([a], id, 15, () => 0), [10]);

        // A millisecond inside the grace it still counts: A's share refills to half the burst, no more.
        clock.advance(59_999);
        await waitFor('a beat of A inside the grace', async () => (await ownBeat(pg)) === T0 + 59_999);
        assert.deepEqual(await burst([a], id, 25, () => 0), [10]);
        // At the grace it no longer does: two seconds refill the whole burst of 20.
        clock.advance(1);
        await waitFor('A alone', () => a.engine.instances.liveCount() === 1);
        clock.advance(2000);
        assert.deepEqual(await burst([a], id, 25, () => 0), [20]);
      } finally {
        await pg.close();
      }
    });
  });

  test('housekeeping prunes rows older than the grace and keeps the live ones', async () => {
    const db = await freshDatabase();
    const dataDir = await makeTempDir();
    const errors: unknown[] = [];
    const backend = postgresBackend({
      url: db.url,
      dataDir,
      retention: () => DEFAULT_CONFIG.retention,
      clock: new ManualClock(T0),
      random: cryptoRandom,
      onError: (e) => errors.push(e),
      housekeepingIntervalMs: 5,
      instances: { heartbeatMs: 20, graceMs: 60_000 },
    });
    const pg = new PostgresDatabase({ url: db.url, onError: (e) => errors.push(e) });
    try {
      await backend.open([]);
      await pg.query(
        'INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, 0, $2), ($3, 0, $4), ($5, 0, $6)',
        ['inst_old', T0 - 60_001, 'inst_edge', T0 - 60_000, 'inst_young', T0 - 59_999],
      );
      const ids = async (): Promise<string[]> =>
        (await pg.query<{ id: string }>('SELECT id FROM instances WHERE id LIKE $1 ORDER BY id', ['inst_%'])).map(
          (r) => r.id,
        );
      await waitFor(
        'the silent rows pruned',
        async () => !(await ids()).some((id) => id === 'inst_old' || id === 'inst_edge'),
      );
      const left = await ids();
      // The backend's own row (beating at T0) and the young one stay.
      assert.equal(left.length, 2);
      assert.ok(left.includes('inst_young'));
      assert.deepEqual(errors, []);
    } finally {
      await pg.close();
      await backend.close();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/** The injected-clock time of the one engine's last beat (every other row is the test's). */
async function ownBeat(pg: PostgresDatabase): Promise<number | undefined> {
  const [row] = await pg.query<{ at: number }>("SELECT heartbeat_at AS at FROM instances WHERE id <> 'inst_dead'");
  return row?.at;
}
