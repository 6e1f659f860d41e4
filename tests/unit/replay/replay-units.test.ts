import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, describe, test } from '../../helpers/node-test.ts';
import { EventBus } from '../../../server/events/event-bus.ts';
import { buildHeaders, forwardedHeaders, setHeader } from '../../../server/replay/outgoing-request.ts';
import { percentile } from '../../../server/support/percentile.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { replayMigrations } from '../../../server/replay/replay-migrations.ts';
import { ReplayService } from '../../../server/replay/replay-service.ts';
import type { StoredReplay } from '../../../server/replay/replay-types.ts';
import { storedReplay } from '../../helpers/stored-replay.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SqljsForwardQueueRepository } from '../../../server/storage/sqljs/forward-queue-sqljs.ts';
import { SqljsReplayRepository } from '../../../server/storage/sqljs/replay-sqljs.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { IdGenerator } from '../../../server/support/ids.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';
import { seedLogSqljs } from '../../helpers/seed-log.ts';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('percentile (nearest rank)', () => {
  test('exact values, no interpolation', () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    assert.equal(percentile(v, 0.5), 5);
    assert.equal(percentile(v, 0.95), 10);
    assert.equal(percentile([7], 0.5), 7);
    assert.equal(percentile([], 0.5), null);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(hundred, 0.95), 95);
    assert.equal(percentile(hundred, 0.5), 50);
  });
});

describe('buildHeaders', () => {
  const target = new URL('http://127.0.0.1:3000/hook');
  test('keeps order and case, drops hop-by-hop and Connection-named headers, recomputes Host and Content-Length', () => {
    const out = buildHeaders(
      [
        ['host', 'abc.loca.lt'],
        ['X-A', '1'],
        ['Connection', 'X-Secret'],
        ['X-Secret', 's'],
        ['Transfer-Encoding', 'chunked'],
        ['x-a', '2'],
        ['Upgrade', 'h2c'],
      ],
      target,
      Buffer.from('hello'),
      {},
      [],
      [],
    );
    assert.deepEqual(out, [
      ['host', '127.0.0.1:3000'],
      ['X-A', '1'],
      ['Content-Length', '5'],
      ['x-a', '2'],
    ]);
  });
  test('no body and no framing header: no Content-Length; overrides then signatures replace any case', () => {
    const out = buildHeaders(
      [
        ['Stripe-Signature', 'old'],
        ['X-B', 'b'],
      ],
      target,
      Buffer.alloc(0),
      { 'x-b': null, 'X-C': 'c' },
      [['stripe-signature', 'new']],
      [],
    );
    assert.deepEqual(out, [
      ['Host', '127.0.0.1:3000'],
      ['stripe-signature', 'new'],
      ['X-C', 'c'],
    ]);
  });
  test("the sender's re-routing and forwarding headers are dropped in any case; the engine's X-Forwarded-* follow the original headers", () => {
    const out = buildHeaders(
      [
        ['Host', 'abc.loca.lt'],
        ['X-Original-URL', '/admin/delete-all'],
        ['x-rewrite-url', '/admin'],
        ['X-HTTP-Method-Override', 'DELETE'],
        ['X-METHOD-OVERRIDE', 'PUT'],
        ['X-Http-Method', 'DELETE'],
        ['X-Forwarded-For', '10.0.0.1'],
        ['x-forwarded-host', 'internal.example'],
        ['X-Forwarded-Proto', 'https'],
        ['X-Forwarded-Port', '443'],
        ['X-Forwarded-Prefix', '/admin'],
        ['Forwarded', 'for=10.0.0.1;host=internal.example;proto=https'],
        ['X-Real-IP', '10.0.0.1'],
        ['X-Kept', 'k'],
        ['X-Forwarded', 'not a claim prefix: kept'],
      ],
      target,
      Buffer.alloc(0),
      {},
      [],
      [
        ['X-Forwarded-For', '203.0.113.9'],
        ['X-Forwarded-Host', 'abc.loca.lt'],
        ['X-Forwarded-Proto', 'https'],
      ],
    );
    assert.deepEqual(out, [
      ['Host', '127.0.0.1:3000'],
      ['X-Kept', 'k'],
      ['X-Forwarded', 'not a claim prefix: kept'],
      ['X-Forwarded-For', '203.0.113.9'],
      ['X-Forwarded-Host', 'abc.loca.lt'],
      ['X-Forwarded-Proto', 'https'],
    ]);
  });
  test("a header the user types wins over the engine's X-Forwarded-* and may put back a dropped one", () => {
    const out = buildHeaders(
      [['X-Original-URL', '/admin']],
      target,
      Buffer.alloc(0),
      { 'x-forwarded-proto': 'https', 'X-Forwarded-For': null, 'X-Original-URL': '/typed' },
      [],
      [
        ['X-Forwarded-For', '127.0.0.1'],
        ['X-Forwarded-Proto', 'http'],
      ],
    );
    assert.deepEqual(out, [
      ['Host', '127.0.0.1:3000'],
      ['x-forwarded-proto', 'https'],
      ['X-Original-URL', '/typed'],
    ]);
  });
  test('setHeader keeps the position of the first occurrence', () => {
    assert.deepEqual(
      setHeader(
        [
          ['a', '1'],
          ['B', '2'],
          ['c', '3'],
          ['b', '4'],
        ],
        'b',
        'x',
      ),
      [
        ['a', '1'],
        ['b', 'x'],
        ['c', '3'],
      ],
    );
  });
});

describe('forwardedHeaders', () => {
  const facts = (host: string | null, publicBase: string | null, sourceIp: string | null = '203.0.113.9') => ({
    sourceIp,
    rawHeaders: [
      ['X-Forwarded-Proto', 'https'],
      ...(host === null
        ? []
        : [
            ['Host', host],
            ['host', 'second.example'],
          ]),
    ] as [string, string][],
    publicBase,
  });
  test('For is the recorded address, Host the first Host header the sender sent', () => {
    assert.deepEqual(forwardedHeaders(facts('abc.loca.lt', 'https://abc.loca.lt')), [
      ['X-Forwarded-For', '203.0.113.9'],
      ['X-Forwarded-Host', 'abc.loca.lt'],
      ['X-Forwarded-Proto', 'https'],
    ]);
  });
  test("Proto is https only for a Host equal to an https public base's host (default port or none)", () => {
    const proto = (host: string | null, base: string | null) =>
      forwardedHeaders(facts(host, base)).find(([n]) => n === 'X-Forwarded-Proto')?.[1];
    assert.equal(proto('abc.loca.lt', 'https://abc.loca.lt'), 'https');
    assert.equal(proto('ABC.loca.lt:443', 'https://abc.loca.lt/'), 'https');
    assert.equal(proto('abc.loca.lt:8443', 'https://abc.loca.lt'), 'http');
    assert.equal(proto('old.loca.lt', 'https://abc.loca.lt'), 'http');
    assert.equal(proto('127.0.0.1:4000', 'https://abc.loca.lt'), 'http');
    assert.equal(proto('abc.localhost', 'http://abc.localhost'), 'http');
    assert.equal(proto('abc.loca.lt', null), 'http');
    assert.equal(proto('bad host/x', 'https://abc.loca.lt'), 'http');
    assert.equal(proto(null, 'https://abc.loca.lt'), 'http');
  });
  test('no recorded address or Host: those headers are left out, Proto stays', () => {
    assert.deepEqual(forwardedHeaders(facts(null, null, null)), [['X-Forwarded-Proto', 'http']]);
  });
});

describe('ReplayService.stats and history (ReplayReader)', () => {
  test('counts by trigger, succeeded/failed by replayFailed, exact p50/p95 over the window', async () => {
    const dir = await makeTempDir('hookscope-replay-unit-');
    dirs.push(dir);
    const clock = new ManualClock(Date.parse('2025-01-01T00:00:00Z'));
    // The replay tables follow logs (replays_follow_logs), so the logs table comes too.
    const store = await SqljsStore.open({
      dir,
      migrations: [
        { feature: 'logs', migrations: logsMigrations },
        { feature: 'replay', migrations: replayMigrations },
      ],
      clock,
    });
    try {
      const service = new ReplayService({
        repo: new SqljsReplayRepository(store),
        queue: new SqljsForwardQueueRepository(store),
        logs: {
          find: () => Promise.reject(new Error('not used')),
          statusOf: () => Promise.reject(new Error('not used')),
        },
        endpoints: { forReceiver: () => undefined },
        urls: { publicBase: null },
        clock,
        ids: new IdGenerator(clock, new SeededRandom(7)),
        events: new EventBus(),
      });
      // Attempts are kept only while their log exists.
      await seedLogSqljs(store, { id: 'log_1', accountId: 'acct_a', endpointId: 'ep_1' });
      const base = clock.now();
      let n = 0;
      const rec = (over: Partial<StoredReplay>): StoredReplay =>
        storedReplay({
          id: `rp_${++n}`,
          accountId: 'acct_a',
          logId: 'log_1',
          status: 200,
          responseTime: 10,
          createdAt: base,
          ...over,
        });
      // Outside the window: must not count.
      await service.record(rec({ createdAt: base - 1, responseTime: 9999 }));
      const times = [5, 1, 9, 3, 7, 2, 8, 4, 6, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 1000];
      for (const [i, t] of times.entries()) {
        await service.record(
          rec({
            createdAt: base + i,
            responseTime: t,
            trigger: i % 4 === 0 ? 'forward' : 'manual',
            status: i % 5 === 0 ? 500 : i % 7 === 0 ? null : 200,
            error: i % 7 === 0 && i % 5 !== 0 ? { code: 'TARGET_TIMEOUT', message: 'x' } : null,
          }),
        );
      }
      // Another account: invisible.
      await service.record(rec({ accountId: 'acct_b', createdAt: base + 1 }));

      const s = await service.stats('acct_a', base);
      assert.equal(s.total, 20);
      assert.deepEqual(s.byTrigger, { forward: 5, manual: 15, client: 0 });
      // Failed: i % 5 === 0 (0,5,10,15) and i % 7 === 0 (7,14) -> 6.
      assert.equal(s.failed, 6);
      assert.equal(s.succeeded, 14);
      const sorted = [...times].sort((a, b) => a - b);
      assert.equal(s.p50Ms, sorted[9]);
      assert.equal(s.p95Ms, sorted[18]);
      assert.deepEqual(await service.stats('acct_c', base), {
        total: 0,
        succeeded: 0,
        failed: 0,
        byTrigger: { manual: 0, forward: 0, client: 0 },
        p50Ms: null,
        p95Ms: null,
      });

      const h = await service.history('acct_a', 'log_1', 3);
      assert.deepEqual(
        h.map((r) => r.createdAt),
        [base + 19, base + 18, base + 17],
        'newest first',
      );
      assert.equal(h[0]!.responseTime, 1000);
      assert.equal((await service.history('acct_b', 'log_1')).length, 1);
    } finally {
      await store.close();
    }
  });
});
