import assert from 'node:assert/strict';
import { abandon } from '../../helpers/abandon-store.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';
import type { NewLog } from '../../../server/logs/log-types.ts';
import { ACCEPTED, VERIFICATION_FAILED } from '../../../server/logs/sender-answers.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { headersInline } from '../../helpers/headers-inline.ts';
import type { LogsRepository, RetentionPolicy } from '../../../server/logs/logs-repository.ts';
import type { LogVerification } from '../../../server/logs/logs-schemas.ts';
import { metricsWindow, METRICS_WINDOWS } from '../../../server/metrics/metrics-window.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import type { Migration, Row, Store, WriteAck, WriteOp } from '../../../server/store/store-types.ts';
import { nearestRank, nearestRankSql } from '../../../server/support/percentile.ts';

const tempDir = tempDirs('hookscope-stats-');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2025, 0, 15, 12, 30, 17);
const ACCOUNTS = ['acc_1', 'acc_2'];
const ENDPOINTS = ['ep_a', 'ep_b', 'ep_c', 'ep_d'];
const REASONS = ['missing_header', 'no_matching_signature', 'timestamp_outside_tolerance', null] as const;
/** Sizes many logs share (so percentiles land on ties), besides spread-out ones. */
const COMMON_SIZES = [0, 1, 512, 1024, 1025];
/** When the metrics are asked for: now, and three days before with logs after the window. */
const MOMENTS = [NOW, NOW - 3 * DAY - 17 * 60_000];

/** A small seeded generator (mulberry32): the same logs on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The store as a version before the logs_answers migration wrote to it: the same log
 * inserts without the answer columns, which that schema does not have yet (a log stored
 * then has none: they stay null once the migration adds them).
 */
function beforeAnswerColumns(store: SqljsStore): Store {
  const drop = (op: WriteOp): WriteOp => {
    const columns = /,\s*answer_status, answer_message, answer_custom\)/;
    if (!columns.test(op.sql)) return op;
    return { ...op, sql: op.sql.replace(columns, ')').replace(/, \?, \?, \?\)$/, ')'), params: op.params.slice(0, -3) };
  };
  return new Proxy(store, {
    get: (target, key) => {
      // The wipe of large bodies' search signatures (a later table) was not written either.
      if (key === 'write')
        return (ops: WriteOp[], ack?: WriteAck) =>
          target.write(ops.filter((op) => !op.sql.includes('log_search_spilled')).map(drop), ack);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function makeLogs(
  store: Store,
  retention: RetentionPolicy,
  idPrefix = 'log_',
): {
  repo: LogsRepository;
  add: (n: number, next: () => number) => Promise<void>;
  addAt: (times: readonly number[], next: () => number) => Promise<void>;
} {
  const repo = new SqljsLogsRepository(store, () => retention);
  let made = 0;
  /** A random log; `fixed` sets its time and status. */
  const one = (next: () => number, fixed?: { at: number; failed: boolean }): NewLog => {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const failed = fixed ? fixed.failed : next() < 0.3;
    const reason = failed ? pick(REASONS) : null;
    const verification: LogVerification = {
      scheme: 'stripe',
      result: failed ? 'invalid' : 'valid',
      reason,
      detail: null,
      matchedSecret: null,
    };
    const size = next() < 0.4 ? pick(COMMON_SIZES) : Math.floor(next() * 5000);
    // 35 days back to 2 hours ahead of NOW, some exactly on an hour's edges.
    let receivedAt = NOW - 35 * DAY + Math.floor(next() * (35 * DAY + 2 * HOUR));
    const edge = next();
    if (edge < 0.05) receivedAt -= receivedAt % HOUR;
    else if (edge < 0.1) receivedAt += HOUR - 1 - (receivedAt % HOUR);
    return {
      accountId: pick(ACCOUNTS),
      endpointId: pick(ENDPOINTS),
      method: 'POST',
      path: '/',
      query: {},
      rawHeaders: [],
      contentType: null,
      size,
      declaredSize: size,
      body: Buffer.alloc(size % 700),
      truncated: false,
      sourceIp: null,
      receivedAt: fixed ? fixed.at : receivedAt,
      durationMs: 1,
      status: failed ? 'failed' : 'success',
      verification,
      eventType: null,
      answer: failed ? VERIFICATION_FAILED : ACCEPTED,
    };
  };
  return {
    repo,
    async add(n, next) {
      // In flight together, as deliveries are: the store applies them in groups.
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < n; i++)
        writes.push(repo.insert(`${idPrefix}${String(made++).padStart(6, '0')}`, one(next), 'applied'));
      await Promise.all(writes);
    },
    async addAt(times, next) {
      // A failed and a successful log at each moment.
      for (const at of times) {
        for (const failed of [true, false]) {
          await repo.insert(`${idPrefix}${String(made++).padStart(6, '0')}`, one(next, { at, failed }), 'applied');
        }
      }
    },
  };
}

/** What log_hourly holds, and what it would hold if computed from the logs now. */
async function hourlyRows(store: Store): Promise<{ kept: Row[]; recomputed: Row[] }> {
  const hour = `received_at - (received_at % ${HOUR} + ${HOUR}) % ${HOUR}`;
  const [kept, recomputed] = await store.batch([
    {
      sql: `SELECT account_id, hour, endpoint_id, n, success, failed, sum_size, last_received_at
            FROM log_hourly ORDER BY account_id, hour, endpoint_id`,
    },
    {
      sql: `SELECT account_id, ${hour} AS hour, endpoint_id, COUNT(*) AS n, SUM(status = 'success') AS success,
              SUM(status = 'failed') AS failed, SUM(size) AS sum_size, MAX(received_at) AS last_received_at
            FROM logs GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    },
  ]);
  return { kept, recomputed };
}

/** Every window at two moments, for every account and endpoint filter: per-hour rows vs every log. */
async function assertSameStats(repo: LogsRepository): Promise<number> {
  let compared = 0;
  for (const now of MOMENTS) {
    for (const name of METRICS_WINDOWS) {
      const w = metricsWindow(name, now);
      for (const accountId of [...ACCOUNTS, 'acc_none']) {
        for (const endpointId of [undefined, ...ENDPOINTS, 'ep_none']) {
          const q = { fromMs: w.fromMs, toMs: w.toMs, bucketMs: w.bucketMs, endpointId };
          const fromLogs = await repo.statsFromLogs(accountId, q);
          assert.deepEqual(await repo.stats(accountId, q), fromLogs, `${accountId} ${name} at ${now} ${endpointId}`);
          if (fromLogs.sizes.count > 0) compared++;
        }
      }
    }
  }
  return compared;
}

describe('metrics from per-hour rows (the logs_hourly migration)', () => {
  test('equal the per-log stats, and the rows equal a recount, through inserts, retention, pins, deletes and updates', async () => {
    const store = await SqljsStore.open({
      dir: await tempDir(),
      migrations: [{ feature: 'logs', migrations: logsMigrations }],
    });
    try {
      const retention: RetentionPolicy = { maxLogsPerAccount: 1_000_000, maxBodyBytesPerAccount: 1 << 30 };
      const next = random(12);
      const { repo, add, addAt } = makeLogs(store, retention);
      await add(1500, next);
      // On every window's edges, inside and out.
      const edges = MOMENTS.flatMap((now) =>
        METRICS_WINDOWS.flatMap((name) => {
          const w = metricsWindow(name, now);
          return [w.fromMs - 1, w.fromMs, w.toMs - 1, w.toMs];
        }),
      );
      await addAt(edges, next);

      // Pin a fifth, so retention steps over them.
      const ids = (await store.all<{ id: string }>('SELECT id FROM logs ORDER BY seq')).map((r) => r.id);
      for (const id of ids.filter(() => next() < 0.2)) {
        for (const accountId of ACCOUNTS) await repo.setPinned(accountId, id, true);
      }
      // Retention by count, then by bytes: logs leave from random hours (they arrived out of order).
      retention.maxLogsPerAccount = 500;
      await add(400, next);
      retention.maxBodyBytesPerAccount = 150_000;
      await add(200, next);
      const kept = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM logs');
      assert.ok(kept!.n < 1400, `retention evicted logs (${kept!.n} of 2,100 left)`);
      retention.maxLogsPerAccount = 1_000_000;
      retention.maxBodyBytesPerAccount = 1 << 30;
      await add(300, next);

      // Deleted through the API: some at random, then the newest log of hours that keep others.
      const left = await store.all<{ id: string; account_id: string }>('SELECT id, account_id FROM logs');
      for (const accountId of ACCOUNTS) {
        const mine = left.filter((l) => l.account_id === accountId && next() < 0.1).map((l) => l.id);
        await repo.deleteByIds(accountId, mine);
      }
      const newest = await store.all<{ id: string; account_id: string }>(
        `SELECT l.id, l.account_id FROM logs l JOIN log_hourly h ON h.account_id = l.account_id
           AND h.endpoint_id = l.endpoint_id AND h.last_received_at = l.received_at
         WHERE h.n > 1 ORDER BY l.seq LIMIT 60`,
      );
      assert.equal(newest.length, 60);
      for (const l of newest) await repo.deleteByIds(l.account_id, [l.id]);
      // Unpin some, delete an endpoint, more deliveries after it all.
      for (const id of ids.filter(() => next() < 0.1)) {
        for (const accountId of ACCOUNTS) await repo.setPinned(accountId, id, false);
      }
      await repo.deleteForEndpoint('acc_1', 'ep_d');
      await add(200, next);

      const rows = await hourlyRows(store);
      assert.deepEqual(rows.kept, rows.recomputed);
      assert.ok((await assertSameStats(repo)) > 50);

      // No code updates the counted columns, but should something do so, the rows follow.
      await store.write([
        {
          sql: `UPDATE logs SET status = 'failed', verification = json_set(verification, '$.reason', 'missing_secret')
                WHERE seq % 11 = 0`,
          params: [],
        },
        { sql: 'UPDATE logs SET received_at = received_at + 5400000, size = size + 3 WHERE seq % 13 = 0', params: [] },
        { sql: "UPDATE logs SET endpoint_id = 'ep_b', account_id = 'acc_2' WHERE seq % 17 = 0", params: [] },
      ]);
      const updated = await hourlyRows(store);
      assert.deepEqual(updated.kept, updated.recomputed);
      await assertSameStats(repo);
    } finally {
      await store.close();
    }
  });

  test('a store written before logs_hourly gets the rows on open, journal tail included', async () => {
    const dir = await tempDir();
    const hourly = logsMigrations.find((m) => m.name === 'logs_hourly')!.number;
    const before: Migration[] = logsMigrations.filter((m) => m.number < hourly);
    const retention: RetentionPolicy = { maxLogsPerAccount: 1_000_000, maxBodyBytesPerAccount: 1 << 30 };
    const next = random(7);

    /** Opens the store at the old schema for `work`, then closes it (a snapshot) or abandons it (a journal tail). */
    const atOldSchema = async (work: (s: SqljsStore) => Promise<void>, end: 'close' | 'abandon'): Promise<void> => {
      const s = await SqljsStore.open({ dir, migrations: [{ feature: 'logs', migrations: before }] });
      try {
        await work(s);
      } catch (e) {
        await s.close();
        throw e;
      }
      await (end === 'close' ? s.close() : abandon(s));
    };

    await atOldSchema((s) => makeLogs(headersInline(beforeAnswerColumns(s)), retention).add(800, next), 'close');
    // What the metrics say at the old schema, for every whole-hour window.
    const expected = new Map<string, unknown>();
    await atOldSchema(async (s) => {
      const old = makeLogs(headersInline(beforeAnswerColumns(s)), retention, 'log_later_');
      await old.add(300, next);
      const some = await s.all<{ id: string }>("SELECT id FROM logs WHERE account_id = 'acc_2' AND seq % 5 = 0");
      await old.repo.deleteByIds(
        'acc_2',
        some.map((r) => r.id),
      );
      for (const name of METRICS_WINDOWS.filter((n) => n !== '1h')) {
        const w = metricsWindow(name, NOW);
        for (const accountId of ACCOUNTS) {
          for (const endpointId of [undefined, ...ENDPOINTS]) {
            const q = { fromMs: w.fromMs, toMs: w.toMs, bucketMs: w.bucketMs, endpointId };
            expected.set(`${name} ${accountId} ${endpointId}`, await old.repo.statsFromLogs(accountId, q));
          }
        }
      }
    }, 'abandon');

    const store = await SqljsStore.open({ dir, migrations: [{ feature: 'logs', migrations: logsMigrations }] });
    try {
      const repo = new SqljsLogsRepository(store, () => retention);
      for (const name of METRICS_WINDOWS.filter((n) => n !== '1h')) {
        const w = metricsWindow(name, NOW);
        for (const accountId of ACCOUNTS) {
          for (const endpointId of [undefined, ...ENDPOINTS]) {
            const q = { fromMs: w.fromMs, toMs: w.toMs, bucketMs: w.bucketMs, endpointId };
            assert.deepEqual(await repo.stats(accountId, q), expected.get(`${name} ${accountId} ${endpointId}`));
          }
        }
      }
      const rows = await hourlyRows(store);
      assert.deepEqual(rows.kept, rows.recomputed);
      assert.ok(rows.kept.length > 500);
    } finally {
      await store.close();
    }
  });
});

describe('nearestRankSql', () => {
  test('is nearestRank in SQL integer arithmetic', async () => {
    const store = await SqljsStore.open({ dir: await tempDir(), migrations: [] });
    try {
      for (const percent of [1, 50, 95, 99, 100]) {
        const rows = await store.all<{ n: number; rank: number }>(
          `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000)
           SELECT n, ${nearestRankSql(percent, 'n')} AS rank FROM c`,
        );
        for (const r of rows) assert.equal(r.rank, nearestRank(percent / 100, r.n), `${percent}% of ${r.n}`);
      }
    } finally {
      await store.close();
    }
  });
});
