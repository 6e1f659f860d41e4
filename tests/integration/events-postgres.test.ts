import assert from 'node:assert/strict';
import pg from 'pg';
import type { EngineEvent } from '../../server/events/event-bus.ts';
import { PostgresEventTransport, type PostgresEventsOptions } from '../../server/storage/postgres/events-postgres.ts';
import { runMigrations } from '../../server/storage/postgres/migration-runner.ts';
import { PostgresDatabase } from '../../server/storage/postgres/postgres-database.ts';
import { POSTGRES_MIGRATIONS } from '../../server/storage/postgres/postgres-migrations.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * The PostgreSQL event transport on its own: ids that commit out of order,
 * the poll backstop and pruning. Intervals are parameters: the poll is an hour
 * unless a test is about it, so only a notification (or its absence) can explain
 * what arrives.
 */
after(stopTestPostgres);

const HOUR = 60 * 60 * 1000;
const T0 = 1_700_000_000_000;

interface Harness {
  url: string;
  db: PostgresDatabase;
  clock: ManualClock;
  /** A started transport and what it delivered, in order. */
  transport(opts?: Partial<PostgresEventsOptions>): Promise<{ t: PostgresEventTransport; got: EngineEvent[] }>;
  /** A plain connection, for a writer outside any transport. */
  client(): Promise<pg.Client>;
}

async function withDatabase(fn: (h: Harness) => Promise<void>): Promise<void> {
  const database = await freshDatabase();
  const db = new PostgresDatabase({ url: database.url, onError: () => undefined });
  const clock = new ManualClock(T0);
  const transports: PostgresEventTransport[] = [];
  const clients: pg.Client[] = [];
  try {
    await runMigrations(db, POSTGRES_MIGRATIONS, clock);
    await fn({
      url: database.url,
      db,
      clock,
      transport: async (opts = {}) => {
        const got: EngineEvent[] = [];
        const t = new PostgresEventTransport({
          db,
          url: database.url,
          clock,
          onError: () => undefined,
          pollMs: HOUR,
          ...opts,
        });
        t.deliverTo((e) => got.push(e));
        transports.push(t);
        await t.start();
        return { t, got };
      },
      client: async () => {
        const c = new pg.Client({ connectionString: database.url });
        clients.push(c);
        await c.connect();
        return c;
      },
    });
  } finally {
    for (const t of transports) await t.close();
    for (const c of clients) await c.end().catch(() => undefined);
    await db.close();
    await database.drop();
  }
}

const draft = (n: number) =>
  ({
    accountId: 'acct_a',
    type: 'endpoint.changed',
    data: { endpointId: `ep_${n}`, change: 'updated' },
    at: T0,
  }) as const;

const endpointIds = (events: EngineEvent[]) => events.map((e) => (e.data as { endpointId: string }).endpointId);

/** What another instance's insert does: a row and a notification, both at its commit. */
const INSERT = `INSERT INTO events (account_id, type, data, at) VALUES ('acct_a', 'endpoint.changed', $1, $2) RETURNING id`;

describe('PostgreSQL event transport', () => {
  test('an id that commits after a later one is held for, then delivered first; past the grace it is skipped live but resumable', async () => {
    await withDatabase(async (h) => {
      const patient = await h.transport({ gapGraceMs: HOUR });
      const hasty = await h.transport({ gapGraceMs: 20 });
      const late = await h.client();
      await late.query('BEGIN');
      const lateId = Number(
        (await late.query<{ id: string }>(INSERT, [JSON.stringify({ endpointId: 'ep_late', change: 'updated' }), T0]))
          .rows[0]!.id,
      );
      await late.query(`SELECT pg_notify('hookscope_events', '')`);
      patient.t.append(draft(2));
      // The hasty one gives up on the missing id after its grace: the later event was read meanwhile.
      await waitFor('the hasty transport to move past the gap', () => hasty.got.length === 1);
      assert.deepEqual(endpointIds(hasty.got), ['ep_2']);
      assert.equal(hasty.got[0]!.id, lateId + 1);
      assert.equal(patient.got.length, 0, 'nothing delivered past an id that may still commit');
      // Nor resumed: the later event would otherwise reach a resumed client before the earlier one.
      assert.deepEqual(await patient.t.since('acct_a', 0), []);

      await late.query('COMMIT');
      await waitFor('the patient transport to deliver both', () => patient.got.length === 2);
      assert.deepEqual(endpointIds(patient.got), ['ep_late', 'ep_2']);
      assert.deepEqual(
        patient.got.map((e) => e.id),
        [lateId, lateId + 1],
      );
      // Not live on the hasty one, but a resume there reads the table.
      assert.deepEqual(endpointIds(await hasty.t.since('acct_a', 0)), ['ep_late', 'ep_2']);
      assert.deepEqual(endpointIds(await hasty.t.since('acct_a', lateId)), ['ep_2']);
      assert.deepEqual(await hasty.t.since('acct_b', 0), []);
    });
  });

  test('a row committed without a notification arrives by the poll', async () => {
    await withDatabase(async (h) => {
      const polling = await h.transport({ pollMs: 30 });
      const silent = await h.client();
      await silent.query(INSERT, [JSON.stringify({ endpointId: 'ep_quiet', change: 'created' }), T0]);
      await waitFor('the poll to find the row', () => polling.got.length === 1);
      assert.deepEqual(endpointIds(polling.got), ['ep_quiet']);
    });
  });

  test('prune drops events older than keepMs by the injected clock, keeping newer ones', async () => {
    await withDatabase(async (h) => {
      const { t } = await h.transport({ keepMs: HOUR });
      const writer = await h.client();
      for (const [n, at] of [
        [1, T0],
        [2, T0 + HOUR],
        [3, T0 + HOUR + 1],
      ] as const)
        await writer.query(INSERT, [JSON.stringify({ endpointId: `ep_${n}`, change: 'created' }), at]);
      await writer.query(`SELECT pg_notify('hookscope_events', '')`);
      // A resume reads only what this instance has delivered live.
      await waitFor('the three events to be delivered', async () => (await t.since('acct_a', 0)).length === 3);
      h.clock.set(T0 + 2 * HOUR);
      await t.prune();
      assert.deepEqual(endpointIds(await t.since('acct_a', 0)), ['ep_2', 'ep_3']);
    });
  });
});
