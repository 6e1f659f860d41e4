import assert from 'node:assert/strict';
import type { ForwardQueueRepository, QueuedForward } from '../../server/replay/forward-queue-repository.ts';
import type { ReplayOutcome, ReplayRepository } from '../../server/replay/replay-repository.ts';
import type { StoredReplay } from '../../server/replay/replay-types.ts';
import { describe, test } from '../helpers/node-test.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';
import type { SeedLog } from '../helpers/seed-log.ts';

/**
 * Replay history, the forward queue, and the logs both follow: `seedLog` inserts
 * a log straight into the backend's `logs` table (PostgreSQL's foreign keys need
 * it), `deleteLogs` deletes logs as retention or a user would.
 */
export interface ReplayUnderTest {
  replays: ReplayRepository;
  queue: ForwardQueueRepository;
  seedLog(log: SeedLog): Promise<void>;
  deleteLogs(ids: readonly string[]): Promise<void>;
  /**
   * Whether the backend's forward lanes are leased among engines sharing it
   * (PostgreSQL), or are always the one engine's (sql.js: every claim granted).
   */
  leasedLanes: boolean;
}

const T0 = 1_764_000_000_000;

/** 64 KiB holding every byte value, 256 times. */
const everyByte = (): Buffer => Buffer.from(Array.from({ length: 65_536 }, (_, i) => i % 256));

/** An attempt with every field set; tests override what they look at. */
function attempt(overrides: Partial<StoredReplay> = {}): StoredReplay {
  return {
    id: 'rp_1',
    accountId: 'acc_a',
    logId: 'log_1',
    endpointId: 'ep_1',
    targetUrl: 'http://127.0.0.1:3000/hooks/stripe?x=1',
    method: 'POST',
    status: 200,
    responseTime: 42,
    error: null,
    trigger: 'manual',
    createdAt: T0,
    edited: false,
    requestHeaders: [
      ['Content-Type', 'application/json'],
      ['X-Repeat', 'one'],
      ['x-repeat', 'two'],
    ],
    requestBody: null,
    requestBodySize: null,
    responseHeaders: [
      ['Content-Type', 'text/plain; charset=utf-8'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ],
    responseBody: Buffer.from('ok'),
    responseTruncated: false,
    ...overrides,
  };
}

/** An attempt as a history list gives it: no bodies, the edited mark kept. */
const listed = (r: StoredReplay): StoredReplay => ({
  ...r,
  responseBody: Buffer.alloc(0),
  requestBody: null,
  requestBodySize: null,
});

const outcome = (r: StoredReplay): ReplayOutcome => ({
  status: r.status,
  error: r.error,
  responseTime: r.responseTime,
  trigger: r.trigger,
});

/**
 * What must not differ between the backends of ReplayRepository and
 * ForwardQueueRepository (their contracts are written on the interfaces).
 * Records are compared with deepStrictEqual: a number read back as a string, a
 * flag as 0/1, a Buffer off by a byte, or '' as null fails.
 */
export function replayContract(harness: ContractHarness<ReplayUnderTest>): void {
  const withReplays = (fn: (under: ReplayUnderTest) => Promise<void>) => withRepository(harness, fn);

  /** Seeds each attempt's log (once), then inserts the attempts in the order given. */
  const inserted = async (under: ReplayUnderTest, ...attempts: StoredReplay[]) => {
    const seeded = new Set<string>();
    for (const r of attempts) {
      if (!seeded.has(r.logId)) {
        await under.seedLog({ id: r.logId, accountId: r.accountId, endpointId: r.endpointId });
        seeded.add(r.logId);
      }
      await under.replays.insert(r, null);
    }
  };

  /** Whether the attempt `id` of acc_a's log_probe comes back marked edited: an edited request left behind would say so. */
  const editedMarkLeft = async (under: ReplayUnderTest, id: string) => {
    await under.replays.insert(attempt({ id, logId: 'log_probe' }), null);
    return (await under.replays.find('acc_a', id))?.edited;
  };

  describe('ReplayRepository contract', () => {
    test('find returns exactly what insert stored, every field set, bodies byte for byte', async () => {
      await withReplays(async (under) => {
        const full = attempt({
          id: 'rp_full',
          edited: true,
          method: 'PUT',
          requestBody: everyByte(),
          requestBodySize: 100_000,
          responseBody: everyByte(),
          responseTruncated: true,
          status: 503,
          responseTime: 30_000,
          createdAt: Number.MAX_SAFE_INTEGER - 30_000,
        });
        const failed = attempt({
          id: 'rp_failed',
          trigger: 'forward',
          status: null,
          error: { code: 'TARGET_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:1' },
          responseHeaders: [],
          responseBody: Buffer.alloc(0),
        });
        // A method-only edit keeps the log's bytes (null); an edit to an empty body keeps an empty one.
        const methodOnly = attempt({ id: 'rp_method_only', edited: true, method: 'PATCH' });
        const emptied = attempt({ id: 'rp_emptied', edited: true, requestBody: Buffer.alloc(0), requestBodySize: 0 });
        await inserted(under, full, failed, methodOnly, emptied);
        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_full'), full);
        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_failed'), failed);
        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_method_only'), methodOnly);
        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_emptied'), emptied);
      });
    });

    test('null and empty strings are kept apart; zeros stay zeros', async () => {
      await withReplays(async (under) => {
        const empties = attempt({
          id: 'rp_empties',
          targetUrl: '',
          method: '',
          status: 0,
          responseTime: 0,
          createdAt: 0,
          error: { code: '', message: '' },
          requestHeaders: [['X-Empty', '']],
          responseHeaders: [['', '']],
          responseBody: Buffer.alloc(0),
        });
        await inserted(under, empties);
        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_empties'), empties);
        assert.deepStrictEqual(await under.replays.since('acc_a', 0), [outcome(empties)]);
      });
    });

    test('U+0000 and any other code point round-trip in the URL, method, error and headers', async () => {
      await withReplays(async (under) => {
        const mixed = ' \uFEFF💳👩‍💻 支付 مدفوعات e\u0301 Ω\r\n\tÿ€𝄞 ';
        const r = attempt({
          id: 'rp_nul',
          targetUrl: `http://127.0.0.1:1/a\u0000b?q=${mixed}`,
          method: 'PO\u0000ST',
          status: null,
          error: {
            code: 'UNSAFE_SUB_PATH',
            message: `Log was not forwarded: the path /..\u0000/${mixed} leads outside.`,
          },
          requestHeaders: [
            ['X-N\u0000ul', 'v\u0000al'],
            ['X-Ünï', mixed],
          ],
          responseHeaders: [['X-\u0000', '\u0000']],
          responseBody: Buffer.from('\u0000 and text', 'utf8'),
        });
        await inserted(under, r);
        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_nul'), r);
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_1', 10, 0), { rows: [listed(r)], total: 1 });
        assert.deepStrictEqual(await under.replays.since('acc_a', 0), [outcome(r)]);
      });
    });

    test("forLog pages a log's attempts newest first (ties: the later inserted first), without bodies, with the total", async () => {
      await withReplays(async (under) => {
        // Ids sort against the expected order, so neither id nor insertion alone gives it.
        const oldest = attempt({ id: 'rp_z1', createdAt: T0 + 1000 });
        const newestFirstIn = attempt({ id: 'rp_z2', createdAt: T0 + 3000 });
        const middleFirstIn = attempt({ id: 'rp_y3', createdAt: T0 + 2000 });
        const newestLaterIn = attempt({ id: 'rp_a4', createdAt: T0 + 3000 });
        const middleLaterIn = attempt({
          id: 'rp_a5',
          createdAt: T0 + 2000,
          edited: true,
          requestBody: Buffer.from('edited'),
          requestBodySize: 6,
        });
        const otherLog = attempt({ id: 'rp_other_log', logId: 'log_2', createdAt: T0 + 5000 });
        const otherAccount = attempt({ id: 'rp_other_acc', accountId: 'acc_b', logId: 'log_b', createdAt: T0 + 5000 });
        await inserted(
          under,
          oldest,
          newestFirstIn,
          middleFirstIn,
          newestLaterIn,
          middleLaterIn,
          otherLog,
          otherAccount,
        );

        const order = [newestLaterIn, newestFirstIn, middleLaterIn, middleFirstIn, oldest].map(listed);
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_1', 50, 0), { rows: order, total: 5 });
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_1', 2, 0), {
          rows: order.slice(0, 2),
          total: 5,
        });
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_1', 2, 2), {
          rows: order.slice(2, 4),
          total: 5,
        });
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_1', 2, 4), { rows: order.slice(4), total: 5 });
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_1', 2, 5), { rows: [], total: 5 });
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_2', 50, 0), {
          rows: [listed(otherLog)],
          total: 1,
        });
        // Another account's log, and a log with no attempts.
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_b', 50, 0), { rows: [], total: 0 });
        assert.deepStrictEqual(await under.replays.forLog('acc_b', 'log_1', 50, 0), { rows: [], total: 0 });
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_missing', 50, 0), { rows: [], total: 0 });
      });
    });

    test("an unknown attempt, and another account's, are not found", async () => {
      await withReplays(async (under) => {
        await inserted(under, attempt({ id: 'rp_a' }));
        assert.equal(await under.replays.find('acc_a', 'rp_missing'), undefined);
        assert.equal(await under.replays.find('acc_b', 'rp_a'), undefined);
        assert.equal(await under.replays.find('', 'rp_a'), undefined);
      });
    });

    test("eviction keeps exactly the account's newest N (ties: the later inserted) with their edited requests, and no other account's", async () => {
      await withReplays(async (under) => {
        const a = (id: string, at: number, over: Partial<StoredReplay> = {}) =>
          attempt({ id, createdAt: T0 + at, ...over });
        const theirs = [1, 2, 3].map((i) => a(`rp_b${i}`, i, { accountId: 'acc_b', logId: 'log_b' }));
        const edited = { edited: true, requestBody: Buffer.from('sent'), requestBodySize: 4 };
        const mine = [
          a('rp_a1', 10),
          a('rp_a2', 40),
          a('rp_a3', 30, edited),
          // Inserted after rp_a3 at the same time: the newer of the two.
          a('rp_a4', 30),
          a('rp_a5', 20, edited),
        ];
        await inserted(under, ...theirs, ...mine, attempt({ id: 'rp_probe_seed', logId: 'log_probe' }));
        // rp_probe_seed (at T0) is the oldest of acc_a's.
        await under.replays.insert(a('rp_a6', 25), 2);

        const left = [];
        for (const r of [...mine, ...theirs]) if (await under.replays.find(r.accountId, r.id)) left.push(r.id);
        assert.deepStrictEqual(left, ['rp_a2', 'rp_a4', 'rp_b1', 'rp_b2', 'rp_b3']);
        assert.equal(await under.replays.find('acc_a', 'rp_a6'), undefined);
        assert.equal(await under.replays.find('acc_a', 'rp_probe_seed'), undefined);
        for (const r of theirs) assert.deepStrictEqual(await under.replays.find('acc_b', r.id), r);
        // Evicted edited attempts took their requests along.
        assert.equal(await editedMarkLeft(under, 'rp_a3'), false);
        assert.equal(await editedMarkLeft(under, 'rp_a5'), false);
      });
    });

    test('since gives every attempt of the account at or after the time, failures included', async () => {
      await withReplays(async (under) => {
        const before = attempt({ id: 'rp_before', createdAt: T0 - 1, responseTime: 1 });
        const at = attempt({ id: 'rp_at', createdAt: T0, responseTime: 2, trigger: 'forward' });
        const failed = attempt({
          id: 'rp_failed',
          createdAt: T0 + 10,
          responseTime: 3,
          status: null,
          error: { code: 'TARGET_TIMEOUT', message: 'No answer within 30000 ms.' },
        });
        const rejected = attempt({ id: 'rp_rejected', createdAt: T0 + 20, responseTime: 4, status: 404 });
        const theirs = attempt({ id: 'rp_theirs', accountId: 'acc_b', logId: 'log_b', createdAt: T0 + 5 });
        await inserted(under, before, at, failed, rejected, theirs);
        const got = (await under.replays.since('acc_a', T0)).sort((x, y) => x.responseTime - y.responseTime);
        assert.deepStrictEqual(got, [at, failed, rejected].map(outcome));
        assert.deepStrictEqual(await under.replays.since('acc_a', T0 + 21), []);
        assert.deepStrictEqual(await under.replays.since('acc_c', 0), []);
      });
    });

    test('lastForwardDelivered is the end of the latest accepted forward: errors, 4xx/5xx and manual replays left out', async () => {
      await withReplays(async (under) => {
        const f = (id: string, at: number, over: Partial<StoredReplay> = {}) =>
          attempt({ id, trigger: 'forward', createdAt: T0 + at, responseTime: 7, ...over });
        await inserted(
          under,
          f('rp_ok', 1000, { responseTime: 50 }),
          // 399 is still accepted: ends at T0 + 1110, the answer.
          f('rp_399', 1100, { status: 399, responseTime: 10 }),
          f('rp_400', 5000, { status: 400 }),
          f('rp_503', 6000, { status: 503 }),
          f('rp_timeout', 7000, { status: null, error: { code: 'TARGET_TIMEOUT', message: 'x' } }),
          // An error beside a 2xx status still is no delivery.
          f('rp_error_200', 8000, { error: { code: 'UNSAFE_SUB_PATH', message: 'x' } }),
          attempt({ id: 'rp_manual', createdAt: T0 + 9000 }),
          f('rp_other_endpoint', 9500, { endpointId: 'ep_2', logId: 'log_2' }),
          f('rp_other_account', 9900, { accountId: 'acc_b', logId: 'log_b' }),
          f('rp_only_failed', 9999, { endpointId: 'ep_3', logId: 'log_3', status: 500 }),
        );
        assert.equal(await under.replays.lastForwardDelivered('acc_a', 'ep_1'), T0 + 1110);
        assert.equal(await under.replays.lastForwardDelivered('acc_a', 'ep_2'), T0 + 9507);
        assert.equal(await under.replays.lastForwardDelivered('acc_b', 'ep_1'), T0 + 9907);
        assert.equal(await under.replays.lastForwardDelivered('acc_a', 'ep_3'), null);
        assert.equal(await under.replays.lastForwardDelivered('acc_a', 'ep_missing'), null);
      });
    });

    test("deleteForEndpoint removes that account's attempts of that endpoint with their edited requests, nothing else", async () => {
      await withReplays(async (under) => {
        const gone = [
          attempt({ id: 'rp_gone_1', endpointId: 'ep_gone', logId: 'log_gone' }),
          attempt({
            id: 'rp_gone_2',
            endpointId: 'ep_gone',
            logId: 'log_gone',
            edited: true,
            requestBody: Buffer.from('x'),
            requestBodySize: 1,
          }),
        ];
        const kept = [
          attempt({ id: 'rp_kept', endpointId: 'ep_kept', logId: 'log_kept' }),
          // The same endpoint id in another account: the account scopes the delete too.
          attempt({ id: 'rp_theirs', accountId: 'acc_b', endpointId: 'ep_gone', logId: 'log_b' }),
        ];
        await inserted(under, ...gone, ...kept);
        await under.replays.deleteForEndpoint('acc_a', 'ep_gone');
        await under.replays.deleteForEndpoint('acc_a', 'ep_gone');
        await under.replays.deleteForEndpoint('acc_a', 'ep_missing');
        for (const r of gone) assert.equal(await under.replays.find('acc_a', r.id), undefined);
        for (const r of kept) assert.deepStrictEqual(await under.replays.find(r.accountId, r.id), r);
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_gone', 50, 0), { rows: [], total: 0 });
        await under.seedLog({ id: 'log_probe', accountId: 'acc_a', endpointId: 'ep_1' });
        assert.equal(await editedMarkLeft(under, 'rp_gone_2'), false);
      });
    });
  });

  describe('ForwardQueueRepository contract', () => {
    const item = (logId: string, endpointId: string, enqueuedAt: number) => ({
      accountId: 'acc_a',
      endpointId,
      logId,
      enqueuedAt,
    });
    /** Seeds each item's log, then enqueues the items in the order given. */
    const enqueued = async (under: ReplayUnderTest, ...items: ReturnType<typeof item>[]) => {
      for (const i of items) await under.seedLog({ id: i.logId, accountId: i.accountId, endpointId: i.endpointId });
      for (const i of items) await under.queue.enqueue(i);
    };
    /** The head, its seq checked to be an integer and then set aside (backends number from where they like). */
    const headOf = async (queue: ForwardQueueRepository, endpointId: string) => {
      const head = await queue.head(endpointId);
      if (head) assert.ok(Number.isSafeInteger(head.seq), `seq ${String(head.seq)} is an integer number`);
      return head;
    };
    const queued = (i: ReturnType<typeof item>, seq: number, attempts = 0): QueuedForward => ({ ...i, seq, attempts });

    test('head is the oldest item of its endpoint, exactly as enqueued, with 0 attempts; pending counts per endpoint', async () => {
      await withReplays(async (under) => {
        const first = item('log_1', 'ep_1', T0 + 300);
        const second = item('log_2', 'ep_2', T0 + 100);
        const third = item('log_3', 'ep_1', T0 + 200);
        await enqueued(under, first, second, third);
        const head1 = await headOf(under.queue, 'ep_1');
        assert.deepStrictEqual(head1, queued(first, head1!.seq));
        const head2 = await headOf(under.queue, 'ep_2');
        assert.deepStrictEqual(head2, queued(second, head2!.seq));
        assert.equal(await under.queue.head('ep_missing'), undefined);
        assert.equal(await under.queue.pending('ep_1'), 2);
        assert.equal(await under.queue.pending('ep_2'), 1);
        assert.equal(await under.queue.pending('ep_missing'), 0);
        assert.deepStrictEqual((await under.queue.endpointsWithPending()).sort(), ['ep_1', 'ep_2']);
      });
    });

    test("each endpoint's items leave first in, first out, whatever their times", async () => {
      await withReplays(async (under) => {
        // Enqueue times run backwards and endpoints interleave: only the order of arrival counts.
        const items = Array.from({ length: 12 }, (_, i) => item(`log_${i}`, i % 3 === 0 ? 'ep_2' : 'ep_1', T0 - i));
        await enqueued(under, ...items);
        const drained: string[] = [];
        let previous = -Infinity;
        for (let head = await headOf(under.queue, 'ep_1'); head; head = await headOf(under.queue, 'ep_1')) {
          assert.ok(head.seq > previous, 'seq increases in enqueue order');
          previous = head.seq;
          drained.push(head.logId);
          await under.queue.remove(head.seq);
        }
        assert.deepStrictEqual(
          drained,
          items.filter((i) => i.endpointId === 'ep_1').map((i) => i.logId),
        );
        assert.equal(await under.queue.pending('ep_1'), 0);
        assert.equal(await under.queue.pending('ep_2'), 4);
        assert.deepStrictEqual(await under.queue.endpointsWithPending(), ['ep_2']);
      });
    });

    test("recordAttempt sets one item's attempts; remove takes one item; unknown seqs change nothing", async () => {
      await withReplays(async (under) => {
        const first = item('log_1', 'ep_1', T0);
        const second = item('log_2', 'ep_1', T0 + 1);
        await enqueued(under, first, second);
        const head = (await headOf(under.queue, 'ep_1'))!;
        await under.queue.recordAttempt(head.seq, 3);
        await under.queue.recordAttempt(head.seq, 4);
        await under.queue.recordAttempt(head.seq + 1_000_000, 9);
        await under.queue.remove(head.seq + 1_000_000);
        assert.deepStrictEqual(await headOf(under.queue, 'ep_1'), queued(first, head.seq, 4));
        assert.equal(await under.queue.pending('ep_1'), 2);
        await under.queue.remove(head.seq);
        const next = (await headOf(under.queue, 'ep_1'))!;
        assert.deepStrictEqual(next, queued(second, next.seq, 0));
        assert.ok(next.seq > head.seq);
      });
    });

    test("clearEndpoint empties that endpoint's queue and no other", async () => {
      await withReplays(async (under) => {
        const kept = item('log_3', 'ep_2', T0 + 2);
        await enqueued(under, item('log_1', 'ep_1', T0), item('log_2', 'ep_1', T0 + 1), kept);
        await under.queue.clearEndpoint('ep_1');
        await under.queue.clearEndpoint('ep_missing');
        assert.equal(await under.queue.head('ep_1'), undefined);
        assert.equal(await under.queue.pending('ep_1'), 0);
        const head = await headOf(under.queue, 'ep_2');
        assert.deepStrictEqual(head, queued(kept, head!.seq));
        assert.deepStrictEqual(await under.queue.endpointsWithPending(), ['ep_2']);
      });
    });
  });

  describe('ForwardQueueRepository lanes', () => {
    const LEASE = 30_000;
    const claim = (under: ReplayUnderTest, owner: string, now: number, endpointId = 'ep_1') =>
      under.queue.claimLane(endpointId, owner, now, LEASE);
    const queueOn = async (under: ReplayUnderTest, endpointId: string, logId: string) => {
      await under.seedLog({ id: logId, accountId: 'acc_a', endpointId });
      await under.queue.enqueue({ accountId: 'acc_a', endpointId, logId, enqueuedAt: T0 });
    };

    test('two owners contending: the first holds the lane until its lease ends; lanes are per endpoint', async () => {
      await withReplays(async (under) => {
        assert.equal(await claim(under, 'engine_a', T0), true);
        assert.equal(await claim(under, 'engine_b', T0 + 1), !under.leasedLanes);
        // The last instant of the lease is still the holder's.
        assert.equal(await claim(under, 'engine_b', T0 + LEASE), !under.leasedLanes);
        assert.equal(await claim(under, 'engine_b', T0, 'ep_2'), true);
        assert.equal(await claim(under, 'engine_a', T0 + 2), true, 'the holder claims its own lane again');
      });
    });

    test('of owners claiming at the same moment, exactly one is granted', async () => {
      await withReplays(async (under) => {
        const owners = Array.from({ length: 8 }, (_, i) => `engine_${i}`);
        const granted = await Promise.all(owners.map((o) => claim(under, o, T0)));
        assert.equal(granted.filter(Boolean).length, under.leasedLanes ? 1 : owners.length);
      });
    });

    test('a lease that ran out is taken over, and its former holder is refused', async () => {
      await withReplays(async (under) => {
        assert.equal(await claim(under, 'engine_a', T0), true);
        assert.equal(await claim(under, 'engine_b', T0 + LEASE + 1), true);
        assert.equal(await claim(under, 'engine_a', T0 + LEASE + 2), !under.leasedLanes);
      });
    });

    test('renewing moves the lease on from the renewal', async () => {
      await withReplays(async (under) => {
        assert.equal(await claim(under, 'engine_a', T0), true);
        assert.equal(await claim(under, 'engine_a', T0 + LEASE - 1), true);
        // Past the first lease, within the renewed one.
        assert.equal(await claim(under, 'engine_b', T0 + LEASE + 1), !under.leasedLanes);
        assert.equal(await claim(under, 'engine_b', T0 + 2 * LEASE), true);
      });
    });

    test("release frees the holder's lane at once; another owner's release changes nothing", async () => {
      await withReplays(async (under) => {
        assert.equal(await claim(under, 'engine_a', T0), true);
        await under.queue.releaseLane('ep_1', 'engine_b');
        assert.equal(await claim(under, 'engine_b', T0 + 1), !under.leasedLanes);
        await under.queue.releaseLane('ep_1', 'engine_a');
        await under.queue.releaseLane('ep_missing', 'engine_a');
        assert.equal(await claim(under, 'engine_b', T0 + 2), true);
      });
    });

    test('unclaimedWithPending: endpoints with items whose lane is free or ran out, once each', async () => {
      await withReplays(async (under) => {
        await queueOn(under, 'ep_free', 'log_1');
        await queueOn(under, 'ep_free', 'log_2');
        await queueOn(under, 'ep_held', 'log_3');
        await queueOn(under, 'ep_expired', 'log_4');
        assert.equal(await claim(under, 'engine_a', T0 + LEASE, 'ep_held'), true);
        assert.equal(await claim(under, 'engine_a', T0, 'ep_expired'), true);
        assert.equal(await claim(under, 'engine_a', T0, 'ep_empty'), true);
        const now = T0 + LEASE + 1;
        assert.deepStrictEqual(
          (await under.queue.unclaimedWithPending(now)).sort(),
          under.leasedLanes ? ['ep_expired', 'ep_free'] : [],
        );
        await under.queue.releaseLane('ep_held', 'engine_a');
        assert.deepStrictEqual(
          (await under.queue.unclaimedWithPending(now)).sort(),
          under.leasedLanes ? ['ep_expired', 'ep_free', 'ep_held'] : [],
        );
      });
    });
  });

  describe('replays and queued forwards follow their log', () => {
    test("deleting a log removes its attempts (with their edited requests) and its queued forwards; another log's stay", async () => {
      await withReplays(async (under) => {
        const edited = { edited: true, requestBody: Buffer.from('changed'), requestBodySize: 7 };
        const goneEdited = attempt({ id: 'rp_gone_edited', logId: 'log_gone', ...edited });
        const gonePlain = attempt({ id: 'rp_gone_plain', logId: 'log_gone', createdAt: T0 + 1 });
        const keptEdited = attempt({ id: 'rp_kept', logId: 'log_kept', ...edited });
        await inserted(under, goneEdited, gonePlain, keptEdited);
        await under.queue.enqueue(forwardOf('log_gone', T0));
        await under.queue.enqueue(forwardOf('log_kept', T0 + 1));
        await under.queue.enqueue(forwardOf('log_gone', T0 + 2));

        await under.deleteLogs(['log_gone']);

        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_gone', 50, 0), { rows: [], total: 0 });
        assert.equal(await under.replays.find('acc_a', 'rp_gone_edited'), undefined);
        assert.equal(await under.replays.find('acc_a', 'rp_gone_plain'), undefined);
        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_kept'), keptEdited);
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_kept', 50, 0), {
          rows: [listed(keptEdited)],
          total: 1,
        });
        assert.deepStrictEqual(await under.replays.since('acc_a', 0), [outcome(keptEdited)]);
        const head = await under.queue.head('ep_1');
        assert.deepStrictEqual(head, { ...forwardOf('log_kept', T0 + 1), seq: head!.seq, attempts: 0 });
        assert.equal(await under.queue.pending('ep_1'), 1);
        await under.seedLog({ id: 'log_probe', accountId: 'acc_a', endpointId: 'ep_1' });
        assert.equal(await editedMarkLeft(under, 'rp_gone_edited'), false);
      });
    });

    test('an attempt or a forward for a log deleted meanwhile is no error and is not kept; the other logs stay as they were', async () => {
      await withReplays(async (under) => {
        const kept = attempt({ id: 'rp_kept', logId: 'log_kept' });
        await inserted(under, kept);
        await under.seedLog({ id: 'log_gone', accountId: 'acc_a', endpointId: 'ep_gone' });
        await under.queue.enqueue(forwardOf('log_kept', T0));
        await under.deleteLogs(['log_gone']);

        const late = { id: 'rp_late', logId: 'log_gone', endpointId: 'ep_gone' };
        await under.replays.insert(
          attempt({ ...late, edited: true, requestBody: Buffer.from('x'), requestBodySize: 1 }),
          5,
        );
        await under.queue.enqueue({ ...forwardOf('log_gone', T0 + 1), endpointId: 'ep_gone' });

        assert.deepStrictEqual(await under.replays.find('acc_a', 'rp_kept'), kept);
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_kept', 50, 0), {
          rows: [listed(kept)],
          total: 1,
        });
        const head = await under.queue.head('ep_1');
        assert.deepStrictEqual(head, { ...forwardOf('log_kept', T0), seq: head!.seq, attempts: 0 });
        assert.equal(await under.queue.pending('ep_1'), 1);
        // Nothing of the late ones was kept: no attempt, no edited body, no queued forward.
        assert.equal(await under.replays.find('acc_a', 'rp_late'), undefined);
        assert.deepStrictEqual(await under.replays.forLog('acc_a', 'log_gone', 50, 0), { rows: [], total: 0 });
        assert.equal(await under.queue.pending('ep_gone'), 0);
        assert.deepStrictEqual(await under.queue.endpointsWithPending(), ['ep_1']);
      });
    });
  });

  /** A forward of acc_a's endpoint ep_1. */
  function forwardOf(logId: string, enqueuedAt: number) {
    return { accountId: 'acc_a', endpointId: 'ep_1', logId, enqueuedAt };
  }
}
