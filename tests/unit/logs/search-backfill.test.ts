import { newLog } from '../../helpers/new-log.ts';
import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { likeTerm } from '../../../server/logs/like-text.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import {
  indexProbe,
  MAX_INDEXED_BODY,
  probeCondition,
  probeWords,
  ROW_BYTES,
  SIGNATURE_COLUMNS,
  SPILLED_MAX_INDEXED_BODY,
} from '../../../server/logs/search-index.ts';
import type { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { storedBodies } from '../../../server/storage/sqljs/log-search-sqljs.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import type { NewLog } from '../../../server/logs/log-types.ts';
import { sqljsBackend } from '../../../server/storage/sqljs/sqljs-backend.ts';
import {
  DEFAULT_INDEX_PACING,
  SearchBackfill,
  UNINDEXED_ABOVE,
  type IndexPacing,
  type Sleep,
} from '../../../server/storage/sqljs/search-backfill.ts';
import { join } from 'node:path';
import { randomBody, randomHeaders, randomPath, seeded, termFrom } from '../../helpers/search-corpus.ts';
import { openLogsStore } from '../../helpers/logs-store.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import { headersInline } from '../../helpers/headers-inline.ts';

const tempDir = tempDirs('hookscope-backfill-');
const ACCOUNT = 'acc_backfill';
const LOGS = 450;

/** Index rows by kind: a log not indexed yet, one whose body is too large to index, signatures. */
async function rowKinds(store: SqljsStore): Promise<{ unindexed: number; full: number; signatures: number }> {
  const r = await store.get<{ unindexed: number; full: number; signatures: number }>(
    `SELECT SUM(w0 = -1) AS unindexed, SUM(w0 = ${2 ** 48 - 1}) AS full,
       SUM(w0 <> -1 AND w0 <> ${2 ** 48 - 1}) AS signatures FROM log_search`,
  );
  return { unindexed: Number(r?.unindexed), full: Number(r?.full), signatures: Number(r?.signatures) };
}

/** How many index rows a search's probe passes. */
async function candidates(store: SqljsStore, search: string): Promise<number> {
  const probe = probeCondition(indexProbe(likeTerm(search)));
  const r = await store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM log_search s WHERE ${probe.sql}`, probe.params);
  return Number(r?.n);
}

describe('search index backfill', () => {
  test('indexes the logs stored before the index, and search finds the same before and after', async () => {
    const dir = await tempDir();
    // Logs stored by a version without the index (its insert, without the index op).
    const before = await openLogsStore(
      dir,
      logsMigrations.filter((m) => m.number < 6),
    );
    const r = seeded(21);
    const texts: (string | Buffer)[] = [];
    let large = 0;
    for (let i = 0; i < LOGS; i++) {
      const body = i === 7 ? Buffer.from('x'.repeat(70_000) + 'needle') : randomBody(r);
      const path = randomPath(r);
      const headers = JSON.stringify(randomHeaders(r));
      texts.push(body, path, headers);
      if (body.length > MAX_INDEXED_BODY) large++;
      await before.write([
        {
          sql: `INSERT INTO logs (id, account_id, endpoint_id, method, path, query, raw_headers, content_type, size,
                  stored_size, truncated, source_ip, received_at, duration_ms, status, verification)
                VALUES (?, ?, 'ep', 'POST', ?, '{}', ?, NULL, ?, ?, 0, NULL, ?, 1, 'success', '{}')`,
          params: [`log_${i}`, ACCOUNT, path, headers, body.length, body.length, 1_700_000_000_000 + i],
        },
        {
          sql: 'INSERT INTO log_bodies (log_seq, body) VALUES ((SELECT seq FROM logs WHERE id = ?), ?)',
          params: [`log_${i}`, body],
        },
      ]);
    }
    await before.close();

    const store = await openLogsStore(dir);
    try {
      const repo = new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 1e6, maxBodyBytesPerAccount: 1 << 30 }));
      assert.deepEqual(await rowKinds(store), { unindexed: LOGS, full: 0, signatures: 0 });
      const searches = Array.from({ length: 40 }, () => termFrom(r, texts[Math.floor(r() * texts.length)]!));
      searches.push('NEEDLE', 'no such text');
      const page = async (search: string) => {
        const p = await repo.page(ACCOUNT, { limit: 20, offset: 0, search });
        return { ids: p.rows.map((l) => l.id), total: p.total };
      };
      assert.equal(await candidates(store, 'no such text'), LOGS);
      const found = [];
      for (const s of searches) found.push(await page(s));
      assert.deepEqual(found.at(-2), { ids: ['log_7'], total: 1 });

      const backfill = new SearchBackfill(store, storedBodies(store), (e) => assert.fail(String(e)));
      backfill.start();
      await backfill.idle();

      // Every log has its signature now, but those whose body is too large to index: a full row.
      const kinds = await rowKinds(store);
      assert.ok(large > 5, `${large} large bodies`);
      assert.equal(kinds.unindexed, 0);
      assert.equal(kinds.full, large);
      assert.ok(kinds.signatures >= LOGS - large, `${kinds.signatures} signature rows`);
      for (const [i, s] of searches.entries()) assert.deepEqual(await page(s), found[i], `search ${JSON.stringify(s)}`);
      // An absent term's candidates: only the logs with a full row now.
      assert.equal(await candidates(store, 'no such text'), large);
    } finally {
      await store.close();
    }
  });

  test('a large body: its signature is spilled (also for logs stored before), tested by searches, wiped on delete', async () => {
    const dir = await tempDir();
    const large = `{"a":"${'lorem ipsum '.repeat(9_000)}","needle":"large-needle-7"}`;
    const huge = `{"a":"${'dolor sit '.repeat(110_000)}","needle":"huge-needle-9"}`;
    assert.ok(large.length > MAX_INDEXED_BODY && large.length <= SPILLED_MAX_INDEXED_BODY);
    assert.ok(huge.length > SPILLED_MAX_INDEXED_BODY);
    // A store before the spilled signatures: the indexer left a full row for a body over 64 KB.
    const before = await openLogsStore(
      dir,
      logsMigrations.filter((m) => m.number < 13),
    );
    try {
      const old = new SqljsLogsRepository(headersInline(before), () => ({
        maxLogsPerAccount: 1e6,
        maxBodyBytesPerAccount: 1 << 30,
      }));
      for (const [id, body] of [
        ['log_small', '{"b":"small-needle"}'],
        ['log_large', large],
        ['log_huge', huge],
      ] as const)
        await old.insert(id, newLog(body, 'success', { accountId: ACCOUNT, path: '/hooks' }), 'applied');
      await before.write([
        {
          sql: `UPDATE log_search SET ${SIGNATURE_COLUMNS.map((c) => `${c} = ${2 ** 48 - 1}`).join(', ')}`,
          params: [],
        },
      ]);
    } finally {
      await before.close();
    }

    const store = await openLogsStore(dir);
    try {
      // The step gives the large body's log back to the indexer; the one past what is spilled keeps its full row.
      assert.deepEqual(await rowKinds(store), { unindexed: 1, full: 2, signatures: 0 });
      const backfill = new SearchBackfill(store, storedBodies(store), (e) => assert.fail(String(e)));
      backfill.start();
      await backfill.idle();
      await backfill.stop();
      // A large body's log keeps one full row in the table (every probe passes it) and its signature spilled.
      assert.deepEqual(await rowKinds(store), { unindexed: 0, full: 3, signatures: 0 });
      const spilled = await store.all<{ id: string; location: number; length: number }>(
        'SELECT l.id, s.location, s.length FROM log_search_spilled s JOIN logs l ON l.seq = s.log_seq',
      );
      assert.deepEqual(
        spilled.map((s) => s.id),
        ['log_large'],
      );
      const { location, length } = spilled[0]!;
      const hasBits = async (term: string) =>
        (
          await store.get<{ v: number }>('SELECT blob_has_bits(?, ?, ?, ?) AS v', [
            location,
            length,
            ROW_BYTES,
            JSON.stringify(probeWords(likeTerm(term))),
          ])
        )?.v;
      assert.equal(await hasBits('large-needle-7'), 1);
      assert.equal(await hasBits('LOREM IPSUM'), 1);
      assert.equal(await hasBits('huge-needle-9'), 0);

      const repo = new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 1e6, maxBodyBytesPerAccount: 1 << 30 }));
      const ids = async (search: string) =>
        (await repo.page(ACCOUNT, { limit: 20, offset: 0, search })).rows.map((l) => l.id);
      assert.deepEqual(await ids('large-needle-7'), ['log_large']);
      assert.deepEqual(await ids('huge-needle-9'), ['log_huge']);
      assert.deepEqual(await ids('needle'), ['log_huge', 'log_large', 'log_small']);
      assert.deepEqual(await ids('no-such-needle'), []);

      // Deleted on purpose: the signature goes with the log, and its bytes are overwritten (read
      // just before, so the worker's read-ahead held them: a query after the wipe reads afresh).
      assert.equal(await hasBits('large-needle-7'), 1);
      await repo.deleteByIds(ACCOUNT, ['log_large']);
      assert.equal((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM log_search_spilled'))?.n, 0);
      const bytes = await store.get<{ v: Uint8Array }>('SELECT blob_value(?, ?) AS v', [location, length]);
      assert.equal(bytes?.v.length, length);
      assert.equal(Buffer.from(bytes.v).equals(Buffer.alloc(length)), true);
    } finally {
      await store.close();
    }
  });

  test('stops with the batch in hand', async () => {
    const store = await openLogsStore(await tempDir());
    try {
      const backfill = new SearchBackfill(store, storedBodies(store), (e) => assert.fail(String(e)));
      backfill.start();
      await backfill.stop();
      await backfill.idle();
    } finally {
      await store.close();
    }
  });
});

const ROOMY = () => ({ maxLogsPerAccount: 1e6, maxBodyBytesPerAccount: 1 << 30 });

const delivery = (body: string): NewLog => newLog(body, 'success', { accountId: ACCOUNT, path: '/hooks' });

/** A sleep the test ends by hand: the indexer's pace, without the wall clock. */
function handSleep(): { sleep: Sleep; calls: () => number; end: () => Promise<void> } {
  const pending: (() => void)[] = [];
  let calls = 0;
  const sleep: Sleep = (_ms, signal) =>
    new Promise<void>((resolve) => {
      calls++;
      pending.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  return {
    sleep,
    calls: () => calls,
    // Ends the sleep the indexer is in, once it is in one.
    end: async () => {
      for (let i = 0; i < 10_000 && pending.length === 0; i++) await new Promise((r) => setImmediate(r));
      assert.ok(pending.length > 0, 'the indexer never slept');
      pending.shift()!();
    },
  };
}

/** Lets the indexer's awaited reads and writes run (each is a round trip to the store's worker). */
const turns = async (n = 50): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 1));
};

/** The row kinds once nothing is left unindexed, or as they are after 5 s (a bounded wait, for what a pass does). */
async function kindsOnceIndexed(store: SqljsStore): Promise<Awaited<ReturnType<typeof rowKinds>>> {
  for (let i = 0; ; i++) {
    const kinds = await rowKinds(store);
    if (kinds.unindexed === 0 || i === 500) return kinds;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('search index written in the background', () => {
  async function withIndexer(
    pacing: IndexPacing,
    sleep: Sleep | undefined,
    fn: (ctx: { store: SqljsStore; repo: SqljsLogsRepository; indexer: SearchBackfill }) => Promise<void>,
  ): Promise<void> {
    const store = await openLogsStore(await tempDir());
    const indexer = new SearchBackfill(store, storedBodies(store), (e) => assert.fail(String(e)), pacing, sleep);
    const repo = new SqljsLogsRepository(store, ROOMY, () => indexer.noteDelivery());
    try {
      indexer.start();
      await indexer.idle();
      await fn({ store, repo, indexer });
    } finally {
      await indexer.stop();
      await store.close();
    }
  }

  test('a delivery is found at once (its row passes every probe), then indexed once deliveries pause', async () => {
    const hand = handSleep();
    await withIndexer(DEFAULT_INDEX_PACING, hand.sleep, async ({ store, repo, indexer }) => {
      await repo.insert('log_a', delivery('{"needle":"alpha"}'), 'applied');
      await repo.insert('log_b', delivery('{"other":"beta"}'), 'applied');
      assert.deepEqual(await rowKinds(store), { unindexed: 2, full: 0, signatures: 0 });
      const found = await repo.page(ACCOUNT, { limit: 20, offset: 0, search: 'alpha' });
      assert.deepEqual(
        found.rows.map((l) => l.id),
        ['log_a'],
      );
      // The delay after the first delivery ends; one came in it (not busy): both are indexed.
      await hand.end();
      await indexer.idle();
      assert.deepEqual(await rowKinds(store), { unindexed: 0, full: 0, signatures: 2 });
      // The probe now passes only the log whose text can hold the term.
      assert.equal(await candidates(store, 'alpha'), 1);
      const again = await repo.page(ACCOUNT, { limit: 20, offset: 0, search: 'alpha' });
      assert.deepEqual(
        again.rows.map((l) => l.id),
        ['log_a'],
      );
    });
  });

  test('while deliveries come faster than the pace, indexing waits; once they slow, it indexes', async () => {
    const hand = handSleep();
    const pacing = { delayMs: 250, busyDeliveries: 2, maxUnindexed: 1_000 };
    await withIndexer(pacing, hand.sleep, async ({ store, repo, indexer }) => {
      for (let i = 0; i < 5; i++) await repo.insert(`log_${i}`, delivery(`{"n":${i}}`), 'applied');
      // Woken by the first, it waits one delay; five came (more than 2): busy, it waits again.
      await hand.end();
      for (let i = 5; i < 8; i++) await repo.insert(`log_${i}`, delivery(`{"n":${i}}`), 'applied');
      await hand.end();
      await turns();
      assert.deepEqual(await rowKinds(store), { unindexed: 8, full: 0, signatures: 0 });
      assert.equal(hand.calls(), 3);
      // A delay with one delivery (not more than 2): ingest has slowed, everything is indexed.
      await repo.insert('log_8', delivery('{"n":8}'), 'applied');
      await hand.end();
      await indexer.idle();
      assert.deepEqual(await rowKinds(store), { unindexed: 0, full: 0, signatures: 9 });
    });
  });

  test('past maxUnindexed it indexes after each delay even while deliveries keep coming', async () => {
    const hand = handSleep();
    const pacing = { delayMs: 250, busyDeliveries: 0, maxUnindexed: 4 };
    await withIndexer(pacing, hand.sleep, async ({ store, repo }) => {
      for (let i = 0; i < 3; i++) await repo.insert(`log_${i}`, delivery(`{"n":${i}}`), 'applied');
      await hand.end();
      // Busy (more than 0 in the delay) and 3 waiting, fewer than 4: it waits.
      await repo.insert('log_3', delivery('{"n":3}'), 'applied');
      await turns();
      assert.deepEqual(await rowKinds(store), { unindexed: 4, full: 0, signatures: 0 });
      // Still busy, but 4 wait now: after this delay it indexes them, deliveries or not.
      await repo.insert('log_4', delivery('{"n":4}'), 'applied');
      await hand.end();
      assert.deepEqual(await kindsOnceIndexed(store), { unindexed: 0, full: 0, signatures: 5 });
    });
  });

  test('a delivery stored while a pass runs is indexed by the next pass, with no delivery after it', async () => {
    const store = await openLogsStore(await tempDir());
    const bodies = storedBodies(store);
    let late: (() => Promise<unknown>) | null = null;
    // Reading the first batch's bodies, a delivery comes: the pass has begun below it.
    const reader = async (seqs: readonly number[]) => {
      const arrive = late;
      late = null;
      await arrive?.();
      return bodies(seqs);
    };
    const indexer = new SearchBackfill(store, reader, (e) => assert.fail(String(e)), {
      ...DEFAULT_INDEX_PACING,
      delayMs: 1,
    });
    const repo = new SqljsLogsRepository(store, ROOMY, () => indexer.noteDelivery());
    try {
      indexer.start();
      await indexer.idle();
      late = () => repo.insert('log_late', delivery('{"late":1}'), 'applied');
      await repo.insert('log_first', delivery('{"first":1}'), 'applied');
      await indexer.idle();
      assert.equal(late, null, 'the late delivery came during the pass');
      assert.deepEqual(await rowKinds(store), { unindexed: 0, full: 0, signatures: 2 });
    } finally {
      await indexer.stop();
      await store.close();
    }
  });

  test('a backlog is indexed oldest first, in batches, so its rows are appended in key order', async () => {
    const store = await openLogsStore(await tempDir());
    const bodies = storedBodies(store);
    const read: number[][] = [];
    const reader = async (seqs: readonly number[]) => {
      read.push([...seqs]);
      return bodies(seqs);
    };
    const indexer = new SearchBackfill(store, reader, (e) => assert.fail(String(e)));
    const repo = new SqljsLogsRepository(store, ROOMY);
    try {
      for (let i = 0; i < LOGS; i++) await repo.insert(`log_${i}`, delivery(`{"n":${i}}`), 'applied');
      indexer.start();
      await indexer.idle();
      assert.ok(read.length >= 3, `${read.length} batches`);
      const order = read.flat();
      assert.equal(order.length, LOGS);
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
      );
      assert.deepEqual(await rowKinds(store), { unindexed: 0, full: 0, signatures: LOGS });
    } finally {
      await indexer.stop();
      await store.close();
    }
  });

  test('the indexer finds the rows to index through the index of those rows alone, never by reading the table', async () => {
    const store = await openLogsStore(await tempDir());
    try {
      const plan = await store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${UNINDEXED_ABOVE}`, [1]);
      assert.deepEqual(
        plan.map((p) => p.detail),
        ['SEARCH s USING COVERING INDEX log_search_unindexed (key>?)', 'SEARCH l USING INTEGER PRIMARY KEY (rowid=?)'],
      );
    } finally {
      await store.close();
    }
  });

  test('the embedded backend tells its indexer of each insert', async () => {
    const dataDir = await tempDir();
    const backend = sqljsBackend({
      dataDir,
      store: { sync: 'interval' },
      retention: ROOMY,
      random: { bytes: (n: number) => Buffer.alloc(n, 7) },
      onError: (e) => assert.fail(String(e)),
    });
    await backend.open([{ feature: 'logs', migrations: logsMigrations }]);
    try {
      backend.logsBackground!.start();
      await backend.repos.logs.insert('log_x', delivery('{"x":1}'), 'applied');
      await (backend.logsBackground as SearchBackfill).idle();
    } finally {
      await backend.logsBackground!.stop();
      await backend.close();
    }
    const store = await openLogsStore(join(dataDir, 'store'));
    try {
      assert.deepEqual(await rowKinds(store), { unindexed: 0, full: 0, signatures: 1 });
    } finally {
      await store.close();
    }
  });
});
