import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import type { LogQuery } from '../../../server/logs/log-types.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import type { SqlValue, Store, WriteOp } from '../../../server/store/store-types.ts';
import { newLog } from '../../helpers/new-log.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-filter-plans-');
const ROOMY = () => ({ maxLogsPerAccount: 1e6, maxBodyBytesPerAccount: 1 << 30 });

/** A statement the repository sent to the store: a read, or a write op. */
type Sent = { sql: string; params?: SqlValue[]; when?: WriteOp['when'] };

/**
 * SQLite's plans (EXPLAIN QUERY PLAN, no statistics: they depend on the schema alone), one
 * line each, of the repository's own statements: `act` runs on a fresh store while what it
 * sends to the store's `method` is caught on its way, and `pick` chooses which to plan.
 */
async function plansOf(
  method: 'batch' | 'write' | 'all',
  act: (repo: SqljsLogsRepository) => Promise<unknown>,
  pick: (sent: Sent[]) => Sent[],
): Promise<string[]> {
  const store = await SqljsStore.open({
    dir: await tempDir(),
    migrations: [{ feature: 'logs', migrations: logsMigrations }],
  });
  try {
    const sent: Sent[] = [];
    const spy = new Proxy(store, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        const call = (...args: unknown[]): unknown => (value as (...a: unknown[]) => unknown).apply(target, args);
        if (key !== method) return call;
        return (first: Sent[] | string, ...rest: unknown[]) => {
          if (typeof first === 'string') sent.push({ sql: first, params: rest[0] as SqlValue[] | undefined });
          else sent.push(...first);
          return call(first, ...rest);
        };
      },
    }) as Store;
    await act(new SqljsLogsRepository(spy, ROOMY));
    const plan = async (q: Sent) =>
      (await store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${q.sql}`, q.params)).map((r) => r.detail).join('; ');
    return await Promise.all(pick(sent).map(plan));
  } finally {
    await store.close();
  }
}

/** The plans of the page and the count a list call runs with `filters`. */
async function plans(filters: Omit<LogQuery, 'limit' | 'offset'>): Promise<{ page: string; count: string }> {
  const [page, count] = await plansOf(
    'batch',
    (repo) => repo.page('acc_plans', { limit: 50, offset: 0, ...filters }),
    (sent) => {
      assert.equal(sent.length, 2, 'a page and its count');
      return sent;
    },
  );
  return { page: page!, count: count! };
}

// At 100,000 deliveries a filter SQLite checks row by row costs a page or a count that matches
// little or nothing a pass over tens of thousands of rows (issue 25: 31-68 ms at p95); these
// plans find the rows through an index holding every equality of the filter.
describe('list filters on sql.js', () => {
  test('an event type is found through its index, page and count, alone or with a status or an endpoint', async () => {
    for (const filters of [
      { eventType: 'push' },
      { eventType: 'push', status: 'failed' as const },
      { eventType: 'push', endpointId: 'ep_1' },
    ]) {
      const { page, count } = await plans(filters);
      assert.match(page, /^SEARCH l USING INDEX logs_by_event_type \(account_id=\? AND event_type=\?\)$/, page);
      // Covering: the status and the endpoint are checked in the index, not in the rows.
      assert.match(count, /^SEARCH l USING COVERING INDEX logs_by_event_type \(account_id=\? AND event_type=\?\)$/);
    }
  });

  test("a status on one endpoint is found through the endpoint's index by status, page and count", async () => {
    const { page, count } = await plans({ status: 'failed', endpointId: 'ep_1' });
    const exact = '(account_id=? AND endpoint_id=? AND status=?)';
    assert.equal(page, `SEARCH l USING INDEX logs_by_endpoint_status ${exact}`);
    assert.equal(count, `SEARCH l USING COVERING INDEX logs_by_endpoint_status ${exact}`);
  });

  test("the total of the account's logs, alone or by status, is read from its counts row, not counted", async () => {
    for (const filters of [{}, { status: 'failed' as const }, { status: 'success' as const }]) {
      const { count } = await plans(filters);
      assert.match(
        count,
        /^SCAN CONSTANT ROW; SCALAR SUBQUERY \d+; SEARCH log_stats USING INDEX sqlite_autoindex_log_stats_1 \(account_id=\?\)$/,
      );
    }
  });

  test("an endpoint's count reads that endpoint's entries alone, its page the endpoint's index in order", async () => {
    const { page, count } = await plans({ endpointId: 'ep_1' });
    assert.equal(page, 'SEARCH l USING INDEX logs_by_endpoint (endpoint_id=?)');
    assert.equal(count, 'SEARCH l USING COVERING INDEX logs_by_endpoint_status (account_id=? AND endpoint_id=?)');
  });

  test('pinned logs, alone or with any other filter, are read from the pinned-only index, page and count', async () => {
    for (const filters of [
      { pinned: true },
      { pinned: true, status: 'failed' as const },
      { pinned: true, endpointId: 'ep_1' },
      { pinned: true, eventType: 'push' },
      { pinned: true, endpointId: 'ep_1', status: 'failed' as const },
    ]) {
      const { page, count } = await plans(filters);
      assert.equal(page, 'SEARCH l USING INDEX logs_pinned (account_id=?)', JSON.stringify(filters));
      assert.equal(count, 'SEARCH l USING COVERING INDEX logs_pinned (account_id=?)', JSON.stringify(filters));
    }
  });

  test('an unpinned total is the total without the filter less the pinned ones, each read through an index', async () => {
    const pinnedOnes = 'SEARCH l USING COVERING INDEX logs_pinned (account_id=?)';
    const counts = 'SEARCH log_stats USING INDEX sqlite_autoindex_log_stats_1 (account_id=?)';
    assert.equal(
      (await plans({ pinned: false })).count,
      `SCAN CONSTANT ROW; SCALAR SUBQUERY 2; SCAN CONSTANT ROW; SCALAR SUBQUERY 1; ${counts}; SCALAR SUBQUERY 3; ${pinnedOnes}`,
    );
    assert.equal(
      (await plans({ pinned: false, endpointId: 'ep_1' })).count,
      'SCAN CONSTANT ROW; SCALAR SUBQUERY 1; SEARCH l USING COVERING INDEX logs_by_endpoint_status ' +
        `(account_id=? AND endpoint_id=?); SCALAR SUBQUERY 2; ${pinnedOnes}`,
    );
  });
});

/** SQLite's plans for the evictions an insert carries (the ops whose `when` decides whether they run). */
const evictionPlans = (): Promise<string[]> =>
  plansOf(
    'write',
    (repo) => repo.insert('log_1', newLog('{}', 'success'), 'applied'),
    (sent) => {
      const evictions = sent.filter((op) => op.when);
      assert.equal(evictions.length, 2, 'over the count and over the bytes');
      return evictions;
    },
  );

// With logs_by_pinned gone (the logs_pinned_only migration), retention finds the oldest unpinned
// logs through the account's index in seq order, stepping over pinned ones in the index (it holds
// `pinned`), not in the rows; a plan that scanned the table or sorted would cost a pass over the
// whole store at every eviction.
describe('retention on sql.js', () => {
  test("evictions walk the account's logs oldest first through its index", async () => {
    const [overCount, overBytes] = await evictionPlans();
    const stats = 'SEARCH log_stats USING INDEX sqlite_autoindex_log_stats_1 (account_id=?)';
    assert.equal(
      overCount,
      `SEARCH logs USING INTEGER PRIMARY KEY (rowid=?); LIST SUBQUERY 2; SCALAR SUBQUERY 1; ${stats}; ` +
        'SEARCH logs USING COVERING INDEX logs_by_account (account_id=?)',
    );
    assert.equal(
      overBytes,
      'SEARCH logs USING INTEGER PRIMARY KEY (rowid=?); LIST SUBQUERY 4; CO-ROUTINE (subquery-2); ' +
        'CO-ROUTINE (subquery-5); SEARCH logs USING INDEX logs_by_account (account_id=?); ' +
        `SCALAR SUBQUERY 1; ${stats}; SCAN (subquery-5); SCAN (subquery-2); SCALAR SUBQUERY 3; ${stats}`,
    );
  });
});

/** SQLite's plans for the reads a metrics window computed from the logs (statsFromLogs) runs. */
const statsPlans = (endpointId?: string): Promise<string[]> =>
  plansOf(
    'all',
    async (repo) => {
      const log = newLog('{}', 'success');
      await repo.insert('log_1', log, 'applied');
      const from = log.receivedAt - 1_000;
      await repo.statsFromLogs(log.accountId, { fromMs: from, toMs: from + 3_600_000, bucketMs: 60_000, endpointId });
    },
    (sent) => {
      assert.equal(sent.length, 3, 'the cells, the failure reasons, the size percentiles');
      return sent;
    },
  );

// The logs_by_received_at_narrow migration left endpoint, status and size out of the index: a
// window computed from the logs (the 1h metrics) reads its own rows through it. Left to itself,
// SQLite sorted the percentiles' sizes by walking the whole account in logs_by_size.
describe('metrics over the logs on sql.js', () => {
  test("every read of a window, with or without an endpoint, takes the window's logs by time", async () => {
    const window = 'SEARCH logs USING INDEX logs_by_received_at (account_id=? AND received_at>? AND received_at<?)';
    for (const endpointId of [undefined, 'ep_1'])
      assert.deepStrictEqual(await statsPlans(endpointId), [
        `${window}; USE TEMP B-TREE FOR GROUP BY`,
        `${window}; USE TEMP B-TREE FOR GROUP BY; USE TEMP B-TREE FOR ORDER BY`,
        `CO-ROUTINE (subquery-1); CO-ROUTINE (subquery-3); ${window}; USE TEMP B-TREE FOR ORDER BY; SCAN (subquery-3); SCAN (subquery-1)`,
      ]);
  });
});
