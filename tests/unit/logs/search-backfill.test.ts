import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { likeTerm } from '../../../server/logs/like-text.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { indexProbe, MAX_INDEXED_BODY, probeCondition } from '../../../server/logs/search-index.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { storedBodies } from '../../../server/storage/sqljs/log-search-sqljs.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SearchBackfill } from '../../../server/storage/sqljs/search-backfill.ts';
import { randomBody, randomHeaders, randomPath, seeded, termFrom } from '../../helpers/search-corpus.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-backfill-');
const ACCOUNT = 'acc_backfill';
const LOGS = 450;

const open = (dir: string, migrations = logsMigrations) =>
  SqljsStore.open({ dir, migrations: [{ feature: 'logs', migrations }] });

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
    const before = await open(
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

    const store = await open(dir);
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

  test('stops with the batch in hand', async () => {
    const store = await open(await tempDir());
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
