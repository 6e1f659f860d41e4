import assert from 'node:assert/strict';
import initSqlJs, { type Database } from 'sql.js';
import { after, before, describe, test } from '../../helpers/node-test.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import type { LogQuery, NewLog } from '../../../server/logs/log-types.ts';
import { ACCEPTED } from '../../../server/logs/sender-answers.ts';
import type { LogsRepository } from '../../../server/logs/logs-repository.ts';
import type { SqlValue } from '../../../server/store/store-types.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { storedBodies } from '../../../server/storage/sqljs/log-search-sqljs.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SearchBackfill } from '../../../server/storage/sqljs/search-backfill.ts';
import { STORED_HEADERS } from '../../../server/storage/sqljs/stored-headers-sqljs.ts';
import { MAX_INDEXED_BODY } from '../../../server/logs/search-index.ts';
import {
  madeUpTerm,
  randomBody,
  randomHeaders,
  randomPath,
  seeded,
  termFrom,
  type Rand,
} from '../../helpers/search-corpus.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-search-');
const ACCOUNT = 'acc_search';
const OTHER = 'acc_other';
const ENDPOINTS = ['ep_a', 'ep_b', 'ep_c'];
const EVENTS = ['invoice.paid', 'charge.failed', null];

function capture(r: Rand, i: number, accountId: string): NewLog {
  const body = randomBody(r);
  return {
    accountId,
    endpointId: ENDPOINTS[i % 3]!,
    method: 'POST',
    path: randomPath(r),
    query: {},
    rawHeaders: randomHeaders(r),
    contentType: null,
    size: body.length,
    declaredSize: body.length,
    body,
    truncated: false,
    sourceIp: null,
    receivedAt: 1_700_000_000_000 + i,
    durationMs: 1,
    status: i % 4 === 0 ? 'failed' : 'success',
    verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
    eventType: EVENTS[i % 3]!,
    answer: ACCEPTED,
  };
}

/**
 * The oracle: a plain sql.js database holding the stored logs' columns and their
 * bodies inline (as the store did before the blob files), where the search as it
 * was before the index runs: LIKE over every log, the same filters, in SQL.
 */
async function oracleOf(store: SqljsStore, bodies: Map<string, Buffer>): Promise<Database> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE logs (seq INTEGER PRIMARY KEY, id TEXT, account_id TEXT, endpoint_id TEXT, status TEXT,
            event_type TEXT, pinned INTEGER, path TEXT, raw_headers TEXT);
          CREATE TABLE log_bodies (log_seq INTEGER PRIMARY KEY, body BLOB);`);
  const rows = await store.all<Record<string, SqlValue>>(
    `SELECT seq, id, account_id, endpoint_id, status, event_type, pinned, path, ${STORED_HEADERS} AS raw_headers FROM logs l`,
  );
  for (const r of rows) {
    db.run('INSERT INTO logs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      r.seq!,
      r.id!,
      r.account_id!,
      r.endpoint_id!,
      r.status!,
      r.event_type ?? null,
      r.pinned!,
      r.path!,
      r.raw_headers!,
    ]);
    db.run('INSERT INTO log_bodies VALUES (?, ?)', [r.seq!, bodies.get(String(r.id))!]);
  }
  return db;
}

function likeSearch(oracle: Database, q: LogQuery): { ids: string[]; total: number } {
  const filters: [string, SqlValue][] = [['l.account_id = ?', ACCOUNT]];
  if (q.endpointId) filters.push(['l.endpoint_id = ?', q.endpointId]);
  if (q.status) filters.push(['l.status = ?', q.status]);
  if (q.eventType !== undefined) filters.push(['l.event_type = ?', q.eventType]);
  if (q.pinned !== undefined) filters.push(['l.pinned = ?', q.pinned ? 1 : 0]);
  const where = filters.map(([w]) => w);
  const params = filters.map(([, p]) => p);
  const like = `%${q.search!.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  where.push(`(l.path LIKE ? ESCAPE '\\' OR l.raw_headers LIKE ? ESCAPE '\\' OR EXISTS (
    SELECT 1 FROM log_bodies b WHERE b.log_seq = l.seq AND CAST(b.body AS TEXT) LIKE ? ESCAPE '\\'))`);
  params.push(like, like, like);
  const sql = where.join(' AND ');
  const ids = oracle.exec(`SELECT l.id FROM logs l WHERE ${sql} ORDER BY l.seq DESC LIMIT ? OFFSET ?`, [
    ...params,
    q.limit,
    q.offset,
  ]);
  const count = oracle.exec(`SELECT COUNT(*) FROM logs l WHERE ${sql}`, params);
  return { ids: (ids[0]?.values ?? []).map((v) => String(v[0])), total: Number(count[0]!.values[0]![0]) };
}

describe('text search through the index', () => {
  let store: SqljsStore;
  let repo: LogsRepository;
  let oracle: Database;
  const texts: (string | Buffer)[] = [];
  const bodies = new Map<string, Buffer>();

  before(async () => {
    store = await SqljsStore.open({
      dir: await tempDir(),
      migrations: [{ feature: 'logs', migrations: logsMigrations }],
    });
    repo = new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 1_000_000, maxBodyBytesPerAccount: 1 << 30 }));
    const r = seeded(7);
    for (let i = 0; i < 240; i++) {
      const log = capture(r, i, i % 10 === 9 ? OTHER : ACCOUNT);
      await repo.insert(`log_${String(i).padStart(4, '0')}`, log, 'applied');
      bodies.set(`log_${String(i).padStart(4, '0')}`, log.body);
      texts.push(log.body, log.path, JSON.stringify(log.rawHeaders));
      if (i % 5 === 0) await repo.setPinned(log.accountId, `log_${String(i).padStart(4, '0')}`, true);
    }
    oracle = await oracleOf(store, bodies);
  });
  after(async () => {
    oracle.close();
    await store.close();
  });

  /** Searches for terms of the stored texts and made-up ones, each with every filter, against the oracle. */
  async function matchesOracle(seed: number): Promise<void> {
    const r = seeded(seed);
    const filters: Partial<LogQuery>[] = [
      {},
      { endpointId: 'ep_b' },
      { status: 'failed' },
      { eventType: 'invoice.paid' },
      { pinned: true },
      { pinned: false, endpointId: 'ep_a' },
    ];
    let nonEmpty = 0;
    for (let k = 0; k < 150; k++) {
      const search = k % 3 === 2 ? madeUpTerm(r) : termFrom(r, texts[Math.floor(r() * texts.length)]!);
      for (const f of filters) {
        const q: LogQuery = { limit: 1 + Math.floor(r() * 12), offset: Math.floor(r() * 4) * 3, search, ...f };
        const expected = likeSearch(oracle, q);
        const got = await repo.page(ACCOUNT, q);
        assert.deepEqual(
          { ids: got.rows.map((l) => l.id), total: got.total },
          expected,
          `search ${JSON.stringify(search)} ${JSON.stringify(f)}`,
        );
        if (expected.total > 0) nonEmpty++;
      }
    }
    assert.ok(nonEmpty > 300, `searches that found something: ${nonEmpty}`);
  }

  test('finds exactly what LIKE over every log found: rows, order and total, with filters and offsets', async () => {
    await matchesOracle(8);
  });

  test('indexed, large bodies with their signatures in the blob files, it still finds exactly that', async () => {
    const failures: unknown[] = [];
    const indexer = new SearchBackfill(store, storedBodies(store), (e) => failures.push(e));
    indexer.start();
    await indexer.idle();
    await indexer.stop();
    assert.deepEqual(failures, []);
    const large = (await store.all<{ seq: number }>('SELECT seq FROM logs WHERE stored_size > ?', [MAX_INDEXED_BODY]))
      .map((l) => l.seq)
      .sort((a, b) => a - b);
    const spilled = (
      await store.all<{ log_seq: number }>('SELECT log_seq FROM log_search_spilled ORDER BY log_seq')
    ).map((l) => l.log_seq);
    assert.ok(large.length >= 10, `large bodies: ${large.length}`);
    assert.deepEqual(spilled, large);
    await matchesOracle(10);
  });

  test('bodies come back byte for byte, NULs and invalid UTF-8 included', async () => {
    // What was inserted (the bodies are in the blob files, not the database).
    const stored = (await store.all<{ seq: number; id: string }>('SELECT seq, id FROM logs')).map((r) => ({
      seq: r.seq,
      body: bodies.get(r.id)!,
    }));
    const read = await storedBodies(store)(stored.map((b) => b.seq).concat([999_999]));
    assert.equal(read.size, stored.length);
    for (const b of stored) assert.deepEqual(Buffer.from(read.get(b.seq)!), b.body, `body of ${b.seq}`);
    assert.ok(stored.some((b) => b.body.includes(0)));
  });

  test('a term does not match across the end of one field and the start of the next', async () => {
    const r = seeded(9);
    await repo.insert(
      'log_span',
      { ...capture(r, 1, ACCOUNT), path: '/spanpath', rawHeaders: [['x-h', 'v']], body: Buffer.from('{"b":1}') },
      'applied',
    );
    // The path ends `...path`, the stored headers start `[["x-h"`, the body starts `{"b"`.
    for (const search of ['path[["x-h', 'path[[', 'h[', '"]]{"b', ']]{']) {
      const got = await repo.page(ACCOUNT, { limit: 50, offset: 0, search });
      assert.equal(
        got.rows.some((l) => l.id === 'log_span'),
        false,
        search,
      );
    }
    for (const search of ['/spanpath', '[["x-h","v"]]', '{"b":1}']) {
      const got = await repo.page(ACCOUNT, { limit: 50, offset: 0, search });
      assert.equal(got.rows[0]?.id, 'log_span', search);
    }
  });
});
