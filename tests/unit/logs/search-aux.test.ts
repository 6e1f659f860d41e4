import assert from 'node:assert/strict';
import { join } from 'node:path';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { ROWS_PER_LOG } from '../../../server/logs/search-index.ts';
import { SNAPSHOT_FILE } from '../../../server/store/journal-files.ts';
import type { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { storedBodies } from '../../../server/storage/sqljs/log-search-sqljs.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SearchBackfill } from '../../../server/storage/sqljs/search-backfill.ts';
import { abandon } from '../../helpers/abandon-store.ts';
import { newLog } from '../../helpers/new-log.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { withSnapshot } from '../../helpers/snapshot-query.ts';
import { openLogsStore } from '../../helpers/logs-store.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-search-aux-');
const ACCOUNT = 'acc_a';
const RETENTION = () => ({ maxLogsPerAccount: 1e6, maxBodyBytesPerAccount: 1 << 30 });

const body = (i: number, word: string): string => JSON.stringify({ id: `evt_${i}`, note: `${word} number ${i}` });

async function indexAll(store: SqljsStore): Promise<void> {
  const backfill = new SearchBackfill(store, storedBodies(store), (e) => assert.fail(String(e)));
  backfill.start();
  await backfill.idle();
  await backfill.stop();
}

async function found(repo: SqljsLogsRepository, search: string): Promise<string[]> {
  return (await repo.page(ACCOUNT, { limit: 100, offset: 0, search })).rows.map((l) => l.id).sort();
}

/** Where each database of the store's snapshot keeps `log_search`, and its rows there. */
async function searchTables(dir: string): Promise<{ main: number; aux: number; rows: number }> {
  return withSnapshot(join(dir, SNAPSHOT_FILE), (db) => {
    const count = (sql: string): number => Number(db.exec(sql)[0]!.values[0]![0]);
    return {
      main: count("SELECT COUNT(*) FROM main.sqlite_master WHERE name = 'log_search'"),
      aux: count("SELECT COUNT(*) FROM aux.sqlite_master WHERE name = 'log_search'"),
      rows: count('SELECT COUNT(*) FROM aux.log_search'),
    };
  });
}

describe('search signatures in the aux database', () => {
  test('a store before the step gets them moved row for row, and searches, inserts and deletes keep working', async () => {
    const dir = await tempDir();
    const before = await openLogsStore(
      dir,
      logsMigrations.filter((m) => m.number < 17),
    );
    let rows: unknown[][];
    let foundBefore: string[];
    try {
      const repo = new SqljsLogsRepository(before, RETENTION);
      for (let i = 0; i < 40; i++) {
        await repo.insert(`log_${i}`, newLog(body(i, i % 4 === 0 ? 'alpaca' : 'heron'), 'success'), 'applied');
      }
      await indexAll(before);
      rows = (await before.all<Record<string, number>>('SELECT * FROM log_search ORDER BY key')).map(Object.values);
      foundBefore = await found(repo, 'alpaca');
      assert.equal(foundBefore.length, 10);
    } finally {
      await before.close();
    }

    const store = await openLogsStore(dir);
    try {
      const repo = new SqljsLogsRepository(store, RETENTION);
      const moved = (await store.all<Record<string, number>>('SELECT * FROM aux.log_search ORDER BY key')).map(
        Object.values,
      );
      assert.equal(moved.length, rows.length);
      assert.deepEqual(moved, rows);
      assert.deepEqual(
        await store.all("SELECT name FROM main.sqlite_master WHERE name IN ('log_search', 'log_search_unindexed')"),
        [],
      );
      assert.deepEqual(await found(repo, 'alpaca'), foundBefore);
      // A deleted log's signature rows are zeroed in the aux database too (they hold its body's trigrams).
      assert.deepEqual(await store.get('PRAGMA aux.secure_delete'), { secure_delete: 1 });

      // The TEMP triggers: a new log gets its row (found before the indexer runs), a deleted one loses its rows.
      await repo.insert('log_new', newLog(body(99, 'alpaca'), 'success'), 'applied');
      assert.deepEqual(await found(repo, 'alpaca'), [...foundBefore, 'log_new'].sort());
      const seq0 = (await store.get<{ seq: number }>("SELECT seq FROM logs WHERE id = 'log_0'"))!.seq;
      const rowsOf0 = async (): Promise<number> =>
        (await store.all('SELECT key FROM aux.log_search WHERE key / ? = ?', [ROWS_PER_LOG, seq0])).length;
      assert.equal(await rowsOf0(), 1);
      await repo.deleteByIds(ACCOUNT, ['log_0']);
      assert.equal(await rowsOf0(), 0);
      await store.checkpoint();
    } finally {
      await store.close();
    }
    // log_new's unindexed row in, log_0's row out.
    assert.deepEqual(await searchTables(dir), { main: 0, aux: 1, rows: rows.length });
  });

  test('a checkpoint writes them in the aux database, and a restart replays the journal through the TEMP triggers', async () => {
    const dir = await tempDir();
    const store = await openLogsStore(dir);
    const repo = new SqljsLogsRepository(store, RETENTION);
    for (let i = 0; i < 6; i++) await repo.insert(`log_${i}`, newLog(body(i, 'before'), 'success'), 'applied');
    await indexAll(store);
    await store.checkpoint();
    // After the snapshot, in the journal only; then the process dies.
    for (let i = 6; i < 9; i++) await repo.insert(`log_${i}`, newLog(body(i, 'after'), 'success'), 'applied');
    await abandon(store);
    const inSnapshot = await searchTables(dir);
    assert.equal(inSnapshot.main, 0);
    assert.equal(inSnapshot.aux, 1);
    assert.ok(inSnapshot.rows >= 6, `${inSnapshot.rows} signature rows for the 6 logs of the snapshot`);

    const reopened = await openLogsStore(dir);
    try {
      const again = new SqljsLogsRepository(reopened, RETENTION);
      assert.deepEqual(await found(again, 'after number'), ['log_6', 'log_7', 'log_8']);
      assert.deepEqual(await found(again, 'before number 5'), ['log_5']);
    } finally {
      await reopened.close();
    }
  });
});
