import assert from 'node:assert/strict';
import type { CustomResponse } from '../../server/endpoints/custom-response.ts';
import { likeMatchesBytes, likeTerm } from '../../server/logs/like-text.ts';
import type { LogCursorQuery, LogQuery, LogStats, NewLog } from '../../server/logs/log-types.ts';
import type {
  LogsRepository,
  RetentionPolicy,
  StoredLog,
  StoredLogWithAnswer,
} from '../../server/logs/logs-repository.ts';
import type { LogVerification } from '../../server/logs/logs-schemas.ts';
import { ACCEPTED, customAnswer, VERIFICATION_FAILED } from '../../server/logs/sender-answers.ts';
import { describe, test } from '../helpers/node-test.ts';
import { madeUpTerm, randomBody, randomHeaders, randomPath, seeded, termFrom } from '../helpers/search-corpus.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';

/** One backend's logs, as a contract test gets them. */
export interface LogsBackend {
  repo: LogsRepository;
  /** Waits for whatever the backend finishes after acknowledging (sql.js: its worker applying the writes). */
  settle(): Promise<void>;
  /** What the interface does not read back, counted with the backend's own SQL: stored bodies and custom answers. */
  stored(): Promise<{ bodies: number; customAnswers: number }>;
}

/** A harness whose repositories read their retention budgets from `retention`, as the engine's read Settings. */
export type LogsHarnessFor = (retention: () => RetentionPolicy) => ContractHarness<LogsBackend>;

const T0 = Date.parse('2026-11-24T10:00:00Z');
const HOUR = 3_600_000;
const ROOMY: RetentionPolicy = { maxLogsPerAccount: 1_000_000, maxBodyBytesPerAccount: 1 << 30 };
const SKIPPED: LogVerification = { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null };
const failed = (reason: LogVerification['reason']): LogVerification => ({
  scheme: 'hmac_sha256',
  result: 'invalid',
  reason,
  detail: 'The X-Webhook-Signature header is missing.',
  matchedSecret: null,
});

/** A capture with every field given; `size` follows the body unless set. */
function capture(over: Partial<NewLog> = {}): NewLog {
  const body = over.body ?? Buffer.from('{"type":"ping"}');
  return {
    accountId: 'acc_a',
    endpointId: 'ep_1',
    method: 'POST',
    path: '/',
    query: {},
    rawHeaders: [['Content-Type', 'application/json']],
    contentType: 'application/json',
    size: body.length,
    declaredSize: body.length,
    body,
    truncated: false,
    sourceIp: '127.0.0.1',
    receivedAt: T0,
    durationMs: 1,
    status: 'success',
    verification: SKIPPED,
    eventType: null,
    answer: ACCEPTED,
    ...over,
  };
}

/** What find() must answer for a log inserted from `log`. */
function storedAs(id: string, log: NewLog, pinned = false): StoredLogWithAnswer {
  const { answer, ...rest } = log;
  return { id, ...rest, storedSize: log.body.length, pinned, answer };
}

/** What a list or findSummary must answer: the same, without body and answer. */
function summaryOf(id: string, log: NewLog, pinned = false): StoredLog {
  const { answer: _answer, ...rest } = storedAs(id, log, pinned);
  return { ...rest, body: null };
}

/**
 * What must not differ between the backends of LogsRepository (its contract is
 * written on the interface). Records are compared with deepStrictEqual: a number
 * read back as a string, a flag as 0/1, '' as null or a body off by one byte fails.
 * Reads follow `settle()`, so a backend that acknowledges before applying (sql.js's
 * `durable`) is read once it has applied.
 */
export function logsContract(harnessFor: LogsHarnessFor): void {
  const withLogs = (fn: (b: LogsBackend) => Promise<void>, retention: () => RetentionPolicy = () => ROOMY) =>
    withRepository(harnessFor(retention), fn);
  const ids = (rows: readonly StoredLog[]) => rows.map((l) => l.id);
  /** Inserts one log and waits until the backend has applied it (and its retention). */
  const put = async (b: LogsBackend, id: string, over: Partial<NewLog> = {}): Promise<NewLog> => {
    const log = capture(over);
    await b.repo.insert(id, log, 'durable');
    await b.settle();
    return log;
  };
  const pageIds = async (b: LogsBackend, q: Partial<LogQuery>, accountId = 'acc_a') => {
    const p = await b.repo.page(accountId, { limit: 200, offset: 0, ...q });
    return { ids: ids(p.rows), total: p.total };
  };

  describe('LogsRepository contract', () => {
    test('insert then find, findSummary and page give back exactly what was stored', async () => {
      await withLogs(async (b) => {
        const full = capture({
          endpointId: 'ep_full',
          method: 'PUT',
          path: '/orders/42?ignored',
          query: { a: '1', b: ['2', '3'], empty: '' },
          rawHeaders: [
            ['Content-Type', 'application/json; charset=utf-8'],
            ['X-Repeat', 'one'],
            ['x-repeat', 'two'],
            ['X-Unicode', 'héllo 日本語 😀'],
          ],
          contentType: 'application/json; charset=utf-8',
          size: 12_345_678,
          declaredSize: 20_000_000,
          body: Buffer.from('{"cut":'),
          truncated: true,
          sourceIp: '::ffff:10.0.0.7',
          receivedAt: T0 + 123,
          durationMs: 4_567,
          status: 'failed',
          verification: failed('payload_too_large'),
          eventType: 'checkout.session.completed',
          answer: { status: 413, message: 'The body is over 10 MB (10485760 bytes).', custom: null },
        });
        // null against '' and 0, an empty body, an answer not recorded (a log from before answers were kept).
        const bare = capture({
          path: '',
          query: {},
          rawHeaders: [],
          contentType: '',
          size: 0,
          declaredSize: null,
          body: Buffer.alloc(0),
          sourceIp: null,
          durationMs: 0,
          eventType: '',
          answer: { status: 200, message: '', custom: null },
        });
        const custom = capture({
          answer: customAnswer({
            status: 202,
            headers: [
              { name: 'X-A', value: '1' },
              { name: 'x-a', value: '2' },
            ],
            body: 'queued \u0000 ✓',
            delayMs: 250,
          }),
        });
        await b.repo.insert('log_full', full, 'durable');
        await b.repo.insert('log_bare', bare, 'applied');
        await b.repo.insert('log_custom', custom, 'durable');
        await b.settle();

        assert.deepStrictEqual(await b.repo.find('acc_a', 'log_full'), storedAs('log_full', full));
        assert.deepStrictEqual(await b.repo.find('acc_a', 'log_bare'), storedAs('log_bare', bare));
        assert.deepStrictEqual(await b.repo.find('acc_a', 'log_custom'), storedAs('log_custom', custom));
        assert.deepStrictEqual(await b.repo.findSummary('acc_a', 'log_full'), summaryOf('log_full', full));
        const page = await b.repo.page('acc_a', { limit: 10, offset: 0 });
        assert.deepStrictEqual(page, {
          rows: [summaryOf('log_custom', custom), summaryOf('log_bare', bare), summaryOf('log_full', full)],
          total: 3,
        });
        assert.equal(await b.repo.find('acc_a', 'log_missing'), undefined);
        assert.equal(await b.repo.findSummary('acc_a', 'log_missing'), undefined);
      });
    });

    test('a 10 MiB body holding every byte value comes back byte for byte', async () => {
      await withLogs(async (b) => {
        const body = Buffer.alloc(10 * 1024 * 1024);
        for (let i = 0; i < body.length; i++) body[i] = (i * 7 + (i >>> 8)) & 0xff;
        const log = capture({ body, contentType: 'application/octet-stream' });
        await b.repo.insert('log_big', log, 'durable');
        await b.settle();
        const found = await b.repo.find('acc_a', 'log_big');
        assert.ok(found?.body && Buffer.isBuffer(found.body));
        assert.equal(found.body.length, body.length);
        assert.ok(found.body.equals(body), 'the body differs');
        assert.equal(found.storedSize, 10 * 1024 * 1024);
        assert.equal(new Set(found.body.subarray(0, 4096)).size, 256);
      });
    });

    test('U+0000 and other outside text round-trip in every text column, and the event filter matches it exactly', async () => {
      await withLogs(async (b) => {
        const log = capture({
          path: '/a\u0000b/\u00e9\u0001',
          query: { 'k\u0000': 'v\u0000w' },
          rawHeaders: [['X-Nul', 'a\u0000b']],
          contentType: 'text/plain\u0000; x=1',
          sourceIp: '10.0.0.1\u0000',
          eventType: 'order.created\u0000evil',
          verification: { ...failed('missing_header'), detail: 'The X-\u0000 header is missing.' },
          status: 'failed',
          answer: { status: 503, message: 'busy \u0000 now', custom: null },
        });
        await put(b, 'log_nul', log);
        await put(b, 'log_prefix', { eventType: 'order.created' });
        assert.deepStrictEqual(await b.repo.find('acc_a', 'log_nul'), storedAs('log_nul', log));
        assert.deepStrictEqual(await pageIds(b, { eventType: 'order.created\u0000evil' }), {
          ids: ['log_nul'],
          total: 1,
        });
        assert.deepStrictEqual(await pageIds(b, { eventType: 'order.created' }), { ids: ['log_prefix'], total: 1 });
        const stats = await b.repo.statsFromLogs('acc_a', { fromMs: T0, toMs: T0 + HOUR, bucketMs: HOUR });
        assert.deepStrictEqual(stats.failureReasons, [{ reason: 'missing_header', count: 1 }]);
      });
    });

    test("another account's logs are not found, listed, searched, counted, deleted or pinned", async () => {
      await withLogs(async (b) => {
        await put(b, 'log_a', { body: Buffer.from('needle of a') });
        await put(b, 'log_b', { accountId: 'acc_b', body: Buffer.from('needle of b') });
        assert.equal(await b.repo.find('acc_a', 'log_b'), undefined);
        assert.equal(await b.repo.findSummary('acc_a', 'log_b'), undefined);
        assert.deepStrictEqual(await b.repo.owned('acc_a', ['log_a', 'log_b']), [{ id: 'log_a', endpointId: 'ep_1' }]);
        assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_a'], total: 1 });
        assert.deepStrictEqual(await pageIds(b, { search: 'needle' }), { ids: ['log_a'], total: 1 });
        assert.deepStrictEqual(await b.repo.clearable('acc_a', 'ep_1'), { unpinnedIds: ['log_a'], pinned: 0 });
        const window = { fromMs: T0, toMs: T0 + HOUR, bucketMs: HOUR };
        assert.equal((await b.repo.statsFromLogs('acc_a', window)).sizes.count, 1);
        assert.equal((await b.repo.stats('acc_a', window)).sizes.count, 1);

        await b.repo.setPinned('acc_a', 'log_b', true);
        await b.repo.deleteByIds('acc_a', ['log_b']);
        await b.repo.deleteForEndpoint('acc_a', 'ep_other');
        await b.settle();
        assert.deepStrictEqual(await b.repo.findSummary('acc_b', 'log_b'), {
          ...summaryOf('log_b', capture({ accountId: 'acc_b', body: Buffer.from('needle of b') })),
        });
        await b.repo.deleteForEndpoint('acc_b', 'ep_1');
        await b.settle();
        assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_a'], total: 1 });
        assert.equal(await b.repo.find('acc_b', 'log_b'), undefined);
      });
    });

    test('pages are newest first and agree with their total under every filter', async () => {
      await withLogs(async (b) => {
        const logs: { id: string; log: NewLog; pinned: boolean }[] = [];
        for (let i = 0; i < 30; i++) {
          const id = `log_${String(i).padStart(2, '0')}`;
          const log = await put(b, id, {
            endpointId: i % 3 === 0 ? 'ep_x' : 'ep_y',
            status: i % 4 === 0 ? 'failed' : 'success',
            verification: i % 4 === 0 ? failed('no_matching_signature') : SKIPPED,
            eventType: i % 5 === 0 ? null : i % 2 === 0 ? 'invoice.paid' : 'charge.failed',
            // Received out of storage order: lists follow storage order, not receivedAt.
            receivedAt: T0 - i * 1000,
            body: Buffer.from(i % 2 === 0 ? `even ${i}` : `odd ${i}`),
          });
          logs.push({ id, log, pinned: i % 7 === 0 });
        }
        for (const l of logs) if (l.pinned) await b.repo.setPinned('acc_a', l.id, true);
        await b.settle();
        const newestFirst = [...logs].reverse();
        const filters: Partial<LogQuery>[] = [
          {},
          { endpointId: 'ep_x' },
          { status: 'failed' },
          { status: 'success', endpointId: 'ep_y' },
          { eventType: 'invoice.paid' },
          { eventType: 'invoice.paid', status: 'success' },
          { pinned: true },
          { pinned: true, status: 'failed' },
          { pinned: false },
          { pinned: false, status: 'failed' },
          { pinned: false, endpointId: 'ep_x' },
          { search: 'even' },
          { search: 'ODD', endpointId: 'ep_y', pinned: false },
          { search: 'even', eventType: 'invoice.paid', status: 'failed' },
          { endpointId: 'ep_none' },
        ];
        const passes = (l: (typeof logs)[number], f: Partial<LogQuery>) =>
          (!f.endpointId || l.log.endpointId === f.endpointId) &&
          (!f.status || l.log.status === f.status) &&
          (f.eventType === undefined || l.log.eventType === f.eventType) &&
          (f.pinned === undefined || l.pinned === f.pinned) &&
          (!f.search || l.log.body.toString().toLowerCase().includes(f.search.toLowerCase()));
        for (const f of filters) {
          const expected = newestFirst.filter((l) => passes(l, f));
          for (const [limit, offset] of [
            [200, 0],
            [4, 0],
            [4, 4],
            [7, expected.length - 3],
            [5, expected.length],
            [5, 100],
          ] as const) {
            const at = Math.max(0, offset);
            const p = await b.repo.page('acc_a', { limit, offset: at, ...f });
            const want = expected.slice(at, at + limit);
            assert.deepStrictEqual(
              { rows: p.rows, total: p.total },
              { rows: want.map((l) => summaryOf(l.id, l.log, l.pinned)), total: expected.length },
              `${JSON.stringify(f)} limit ${limit} offset ${at}`,
            );
          }
        }
      });
    });

    test('pages after a cursor are oldest first in storage order (not id or time order), filtered, totals exact', async () => {
      await withLogs(async (b) => {
        const logs: { id: string; log: NewLog; pinned: boolean }[] = [];
        for (let i = 0; i < 24; i++) {
          // Ids and receivedAt run backwards: only storage order says what arrived after what.
          const id = `log_${String(99 - i)}`;
          const log = await put(b, id, {
            endpointId: i % 3 === 0 ? 'ep_x' : 'ep_y',
            status: i % 4 === 0 ? 'failed' : 'success',
            verification: i % 4 === 0 ? failed('no_matching_signature') : SKIPPED,
            eventType: i % 2 === 0 ? 'invoice.paid' : 'charge.failed',
            receivedAt: T0 - i * 1000,
          });
          logs.push({ id, log, pinned: i % 5 === 0 });
        }
        for (const l of logs) if (l.pinned) await b.repo.setPinned('acc_a', l.id, true);
        await put(b, 'log_other', { accountId: 'acc_b' });
        const filters: Omit<LogCursorQuery, 'after' | 'limit'>[] = [
          {},
          { endpointId: 'ep_x' },
          { status: 'failed' },
          { status: 'success', endpointId: 'ep_y' },
          { eventType: 'invoice.paid', pinned: false },
          { pinned: true },
          { endpointId: 'ep_none' },
        ];
        for (const f of filters) {
          const passing = logs.filter(
            (l) =>
              (!f.endpointId || l.log.endpointId === f.endpointId) &&
              (!f.status || l.log.status === f.status) &&
              (f.eventType === undefined || l.log.eventType === f.eventType) &&
              (f.pinned === undefined || l.pinned === f.pinned),
          );
          // Cursors that pass the filter and cursors that do not (log_98 is ep_y, log_99 ep_x).
          for (const cursor of [0, 1, 7, 22, 23]) {
            const expected = passing.filter((l) => logs.indexOf(l) > cursor);
            for (const limit of [200, 3]) {
              const p = await b.repo.pageAfter('acc_a', { after: logs[cursor]!.id, limit, ...f });
              assert.deepStrictEqual(
                p,
                {
                  rows: expected.slice(0, limit).map((l) => summaryOf(l.id, l.log, l.pinned)),
                  total: expected.length,
                },
                `${JSON.stringify(f)} after ${logs[cursor]!.id} limit ${limit}`,
              );
            }
          }
        }
      });
    });

    test("a cursor the account does not have is not found: never stored, deleted, evicted, another account's", async () => {
      let budget = 1_000_000;
      await withLogs(
        async (b) => {
          for (const id of ['log_1', 'log_2', 'log_3', 'log_4']) await put(b, id);
          await put(b, 'log_b', { accountId: 'acc_b' });
          const after = (id: string) => b.repo.pageAfter('acc_a', { after: id, limit: 10 });
          assert.deepStrictEqual(ids((await after('log_1'))!.rows), ['log_2', 'log_3', 'log_4']);
          assert.equal(await after('log_never'), undefined);
          assert.equal(await after('log_b'), undefined);
          assert.deepStrictEqual(ids((await b.repo.pageAfter('acc_b', { after: 'log_b', limit: 10 }))!.rows), []);
          await b.repo.deleteByIds('acc_a', ['log_2']);
          await b.settle();
          assert.equal(await after('log_2'), undefined);
          budget = 2;
          await put(b, 'log_5');
          // log_1 and log_3 were evicted (the oldest), log_4 and log_5 kept.
          assert.equal(await after('log_1'), undefined);
          assert.equal(await after('log_3'), undefined);
          assert.deepStrictEqual(await after('log_4'), { rows: [summaryOf('log_5', capture())], total: 1 });
          // The newest log is a cursor too: nothing after it, yet.
          assert.deepStrictEqual(await after('log_5'), { rows: [], total: 0 });
        },
        () => ({ ...ROOMY, maxLogsPerAccount: budget }),
      );
    });

    test('a log deleted between two cursor pages never makes the next page skip one', async () => {
      await withLogs(async (b) => {
        const all = Array.from({ length: 12 }, (_, i) => `log_${String(i).padStart(2, '0')}`);
        for (const id of all) await put(b, id);
        const first = await b.repo.pageAfter('acc_a', { after: 'log_00', limit: 4 });
        assert.deepStrictEqual(
          { ids: ids(first!.rows), total: first!.total },
          {
            ids: ['log_01', 'log_02', 'log_03', 'log_04'],
            total: 11,
          },
        );
        // Deleted behind the cursor (in the page just read, and before it): by offset the next page would start at log_07.
        await b.repo.deleteByIds('acc_a', ['log_01', 'log_02', 'log_00']);
        await b.settle();
        const second = await b.repo.pageAfter('acc_a', { after: 'log_04', limit: 4 });
        assert.deepStrictEqual(
          { ids: ids(second!.rows), total: second!.total },
          {
            ids: ['log_05', 'log_06', 'log_07', 'log_08'],
            total: 7,
          },
        );
        // Deleted ahead of the cursor: the page goes on from what is left, still in order.
        await b.repo.deleteByIds('acc_a', ['log_09']);
        await b.settle();
        const third = await b.repo.pageAfter('acc_a', { after: 'log_08', limit: 4 });
        assert.deepStrictEqual({ ids: ids(third!.rows), total: third!.total }, { ids: ['log_10', 'log_11'], total: 2 });
        // A later delivery comes after the last cursor, never before it.
        await put(b, 'log_00_late');
        const fourth = await b.repo.pageAfter('acc_a', { after: 'log_11', limit: 4 });
        assert.deepStrictEqual(ids(fourth!.rows), ['log_00_late']);
      });
    });

    test('retention by count evicts the oldest unpinned logs; pinned logs stay outside the budget', async () => {
      let retention: RetentionPolicy = { maxLogsPerAccount: 3, maxBodyBytesPerAccount: 1 << 30 };
      await withLogs(
        async (b) => {
          // Another account's logs are outside this account's budget.
          for (const id of ['log_b1', 'log_b2', 'log_b3']) await put(b, id, { accountId: 'acc_b' });
          await put(b, 'log_1');
          await put(b, 'log_2');
          await b.repo.setPinned('acc_a', 'log_1', true);
          for (const id of ['log_3', 'log_4', 'log_5', 'log_6']) await put(b, id);
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_6', 'log_5', 'log_4', 'log_1'], total: 4 });
          // Unpinned, it counts again: the next insert brings the account back to 3 unpinned logs.
          await b.repo.setPinned('acc_a', 'log_1', false);
          await put(b, 'log_7');
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_7', 'log_6', 'log_5'], total: 3 });
          // Budgets are read at each insert.
          retention = { ...retention, maxLogsPerAccount: 1 };
          await put(b, 'log_8');
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_8'], total: 1 });
          assert.deepStrictEqual(await pageIds(b, {}, 'acc_b'), { ids: ['log_b3', 'log_b2', 'log_b1'], total: 3 });
          assert.equal(await b.repo.find('acc_a', 'log_5'), undefined);
          assert.deepStrictEqual(await b.stored(), { bodies: 4, customAnswers: 0 });
        },
        () => retention,
      );
    });

    test('retention by bytes evicts the oldest unpinned logs down to 90% of the budget; pinned bodies do not count', async () => {
      await withLogs(
        async (b) => {
          const body = (n: number) => Buffer.alloc(n, 0x61);
          await put(b, 'log_b', { accountId: 'acc_b', body: body(900) });
          await put(b, 'log_a', { body: body(300) });
          await b.repo.setPinned('acc_a', 'log_a', true);
          for (const id of ['log_1', 'log_2', 'log_3']) await put(b, id, { body: body(300) });
          // 900 unpinned bytes: under 1000 (log_a's 300 would take it over, were pinned bodies counted).
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_3', 'log_2', 'log_1', 'log_a'], total: 4 });
          // 1200 > 1000: the oldest go until at most 900 is left (log_1 alone).
          await put(b, 'log_4', { body: body(300) });
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_4', 'log_3', 'log_2', 'log_a'], total: 4 });
          await put(b, 'log_5', { body: body(50) });
          assert.deepStrictEqual((await pageIds(b, {})).total, 5);
          // 1050 > 1000: log_2 (300) goes, 750 left.
          await put(b, 'log_6', { body: body(100) });
          assert.deepStrictEqual(await pageIds(b, {}), {
            ids: ['log_6', 'log_5', 'log_4', 'log_3', 'log_a'],
            total: 5,
          });
          // A body over the whole budget evicts every older unpinned log, then itself.
          await put(b, 'log_7', { body: body(1200) });
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_a'], total: 1 });
          assert.deepStrictEqual(await pageIds(b, {}, 'acc_b'), { ids: ['log_b'], total: 1 });
        },
        () => ({ maxLogsPerAccount: 1_000_000, maxBodyBytesPerAccount: 1000 }),
      );
    });

    test('inserts running at once for one account keep the counts exact', async () => {
      await withLogs(
        async (b) => {
          // Rounds of writers meeting on an account one log under its budget: each must see what the
          // others before it left, or they all keep their log and the account ends over its budget.
          let n = 0;
          for (let round = 0; round < 6; round++) {
            const before = await b.repo.page('acc_a', { limit: 50, offset: 0 });
            if (before.total === 5) await b.repo.deleteByIds('acc_a', [before.rows.at(-1)!.id]);
            while ((await b.repo.page('acc_a', { limit: 1, offset: 0 })).total < 4) await put(b, `log_${n++}`);
            await Promise.all(
              Array.from({ length: 8 }, () =>
                b.repo.insert(`log_${n++}`, capture({ body: Buffer.alloc(10) }), 'durable'),
              ),
            );
            await b.settle();
            assert.equal((await b.repo.page('acc_a', { limit: 50, offset: 0 })).total, 5, `round ${round}`);
          }
          const after = await b.repo.page('acc_a', { limit: 50, offset: 0 });
          // The counts are right: one more insert evicts exactly one, the oldest left.
          await put(b, 'log_next', { body: Buffer.alloc(10) });
          assert.deepStrictEqual(await pageIds(b, {}), {
            ids: ['log_next', ...ids(after.rows).slice(0, 4)],
            total: 5,
          });
          assert.deepStrictEqual(await b.stored(), { bodies: 5, customAnswers: 0 });
        },
        () => ({ maxLogsPerAccount: 5, maxBodyBytesPerAccount: 1 << 30 }),
      );
    });

    test('a second insert of a stored id is refused and leaves the first log, its index and its count as they were', async () => {
      await withLogs(
        async (b) => {
          const first = await put(b, 'log_dup', { body: Buffer.from('first body'), path: '/first' });
          await assert.rejects(
            b.repo.insert('log_dup', capture({ body: Buffer.from('second body'), path: '/second' }), 'applied'),
          );
          await b.settle();
          assert.deepStrictEqual(await b.repo.find('acc_a', 'log_dup'), storedAs('log_dup', first));
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_dup'], total: 1 });
          assert.deepStrictEqual(await pageIds(b, { search: 'second' }), { ids: [], total: 0 });
          assert.deepStrictEqual(await pageIds(b, { search: 'first' }), { ids: ['log_dup'], total: 1 });
          // Counted once: two more logs take the account to its budget of 3, no further.
          await put(b, 'log_2');
          await put(b, 'log_3');
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_3', 'log_2', 'log_dup'], total: 3 });
          await put(b, 'log_4');
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_4', 'log_3', 'log_2'], total: 3 });
          assert.deepStrictEqual(await b.stored(), { bodies: 3, customAnswers: 0 });
        },
        () => ({ maxLogsPerAccount: 3, maxBodyBytesPerAccount: 1 << 30 }),
      );
    });

    test('inserts of several accounts at once, retention tight: each keeps its newest logs, counted once', async () => {
      await withLogs(
        async (b) => {
          // All at once: PostgreSQL writes the first alone and the others together, in one transaction.
          const order = ['acc_a', 'acc_b', 'acc_a', 'acc_c', 'acc_a', 'acc_b', 'acc_a', 'acc_b', 'acc_b', 'acc_a'];
          const sent = order.map((accountId, i) => ({ id: `log_${i}`, accountId }));
          await Promise.all(
            sent.map(({ id, accountId }) =>
              b.repo.insert(id, capture({ accountId, body: Buffer.from(`grouped ${id}`) }), 'applied'),
            ),
          );
          await b.settle();
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_9', 'log_6', 'log_4'], total: 3 });
          assert.deepStrictEqual(await pageIds(b, {}, 'acc_b'), { ids: ['log_8', 'log_7', 'log_5'], total: 3 });
          assert.deepStrictEqual(await pageIds(b, {}, 'acc_c'), { ids: ['log_3'], total: 1 });
          assert.deepStrictEqual(await pageIds(b, { search: 'grouped' }, 'acc_b'), {
            ids: ['log_8', 'log_7', 'log_5'],
            total: 3,
          });
          assert.equal(await b.repo.find('acc_a', 'log_2'), undefined);
          assert.deepStrictEqual(await b.stored(), { bodies: 7, customAnswers: 0 });
          // The counts are exact: one more log of acc_a evicts exactly its oldest.
          await put(b, 'log_next');
          assert.deepStrictEqual(await pageIds(b, {}), { ids: ['log_next', 'log_9', 'log_6'], total: 3 });
        },
        () => ({ maxLogsPerAccount: 3, maxBodyBytesPerAccount: 1 << 30 }),
      );
    });

    test('an insert refused among inserts running at once fails alone: every other one is stored, once', async () => {
      await withLogs(async (b) => {
        const first = await put(b, 'log_dup', { body: Buffer.from('first body') });
        const ids = ['log_1', 'log_2', 'log_dup', 'log_3', 'log_4'];
        const results = await Promise.allSettled(
          ids.map((id) => b.repo.insert(id, capture({ body: Buffer.from(`second body of ${id}`) }), 'applied')),
        );
        await b.settle();
        assert.deepStrictEqual(
          results.map((r) => r.status),
          ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
        );
        assert.deepStrictEqual(await pageIds(b, {}), {
          ids: ['log_4', 'log_3', 'log_2', 'log_1', 'log_dup'],
          total: 5,
        });
        assert.deepStrictEqual(await b.repo.find('acc_a', 'log_dup'), storedAs('log_dup', first));
        assert.deepStrictEqual(await pageIds(b, { search: 'second body of log_dup' }), { ids: [], total: 0 });
        assert.deepStrictEqual(await pageIds(b, { search: 'second body' }), {
          ids: ['log_4', 'log_3', 'log_2', 'log_1'],
          total: 4,
        });
        assert.deepStrictEqual(await b.stored(), { bodies: 5, customAnswers: 0 });
      });
    });

    test('search matches as LIKE did: ASCII-only case folding, % and _ literal, path, headers and body', async () => {
      await withLogs(async (b) => {
        await put(b, 'log_ascii', { body: Buffer.from('the abc of it') });
        await put(b, 'log_accent', { body: Buffer.from('caf\u00e9 cr\u00e8me') });
        await put(b, 'log_percent', { body: Buffer.from('100% sure, a_b') });
        await put(b, 'log_plain', { body: Buffer.from('1000 sure, axb') });
        await put(b, 'log_path', { path: '/hooks/Stripe-Events', body: Buffer.alloc(0) });
        await put(b, 'log_header', { rawHeaders: [['X-Trace', 'Trace-Me-42']], body: Buffer.from('{}') });
        await put(b, 'log_cjk', { body: Buffer.from('注文 日本語 ok') });
        await put(b, 'log_nul', { body: Buffer.from('visible\u0000hidden tail') });
        const search = async (s: string, q: Partial<LogQuery> = {}) => (await pageIds(b, { search: s, ...q })).ids;
        assert.deepStrictEqual(await search('ABC'), ['log_ascii']);
        assert.deepStrictEqual(await search('caf\u00e9'), ['log_accent']);
        assert.deepStrictEqual(await search('CAF\u00e9'), ['log_accent']);
        // Only ASCII letters fold: É does not find é.
        assert.deepStrictEqual(await search('CAF\u00c9'), []);
        assert.deepStrictEqual(await search('CR\u00c8ME'), []);
        assert.deepStrictEqual(await search('0%'), ['log_percent']);
        assert.deepStrictEqual(await search('a_b'), ['log_percent']);
        assert.deepStrictEqual(await search('_'), ['log_percent']);
        assert.deepStrictEqual(await search('stripe-events'), ['log_path']);
        assert.deepStrictEqual(await search('trace-me-42'), ['log_header']);
        // In the headers' JSON text, names included.
        assert.deepStrictEqual(await search('"x-trace","'), ['log_header']);
        assert.deepStrictEqual(await search('日本語'), ['log_cjk']);
        assert.deepStrictEqual(await search('本語 OK'), ['log_cjk']);
        // LIKE read a text up to its first NUL.
        assert.deepStrictEqual(await search('visible'), ['log_nul']);
        assert.deepStrictEqual(await search('hidden'), []);
        assert.deepStrictEqual(await search('nowhere at all'), []);
        assert.deepStrictEqual(await search('SURE', { limit: 1 }), ['log_plain']);
        assert.deepStrictEqual(await pageIds(b, { search: 'sure', limit: 1, offset: 1 }), {
          ids: ['log_percent'],
          total: 2,
        });
      });
    });

    test('search finds terms anywhere in large bodies, across index rows, and agrees with like-text on a corpus', async () => {
      await withLogs(async (b) => {
        const r = seeded(23);
        const words = ['alpha', 'Bravo', 'charlie', 'délta', 'ECHO', 'foxtrot', '日本', 'golf_', 'hotel%'];
        // About 24 KB of varied text: a few dozen index rows.
        let large = '';
        while (large.length < 24_000) large += `${words[Math.floor(r() * words.length)]}-${Math.floor(r() * 1e6)} `;
        const logs: { id: string; log: NewLog }[] = [
          { id: 'log_large', log: await put(b, 'log_large', { body: Buffer.from(large) }) },
          // Past the indexed size (64 KB): one row every probe passes, checked exactly.
          { id: 'log_huge', log: await put(b, 'log_huge', { body: Buffer.from(`${large.repeat(3)} tail-marker`) }) },
        ];
        for (let i = 0; i < 60; i++) {
          const id = `log_${String(i).padStart(2, '0')}`;
          const log = capture({
            path: randomPath(r),
            rawHeaders: randomHeaders(r),
            body: randomBody(r),
            endpointId: i % 2 === 0 ? 'ep_even' : 'ep_odd',
          });
          await b.repo.insert(id, log, 'durable');
          logs.push({ id, log });
        }
        await b.settle();
        const texts = logs.flatMap(({ log }) => [log.path, JSON.stringify(log.rawHeaders), log.body]);
        const terms = [
          // Cut from the large body every 1,500 bytes, 40 to 70 bytes long: many straddle two rows.
          ...Array.from({ length: 15 }, (_, k) => large.slice(k * 1500 + 700, k * 1500 + 740 + (k % 4) * 10)),
          'tail-marker',
          ...Array.from({ length: 40 }, () => termFrom(r, texts[Math.floor(r() * texts.length)]!, 30)),
          ...Array.from({ length: 25 }, () => madeUpTerm(r)),
        ];
        const newestFirst = [...logs].reverse();
        for (const term of terms) {
          const t = likeTerm(term);
          const expected = newestFirst
            .filter(
              ({ log }) =>
                likeMatchesBytes(t, Buffer.from(log.path)) ||
                likeMatchesBytes(t, Buffer.from(JSON.stringify(log.rawHeaders))) ||
                likeMatchesBytes(t, log.body),
            )
            .map((l) => l.id);
          assert.deepStrictEqual(
            await pageIds(b, { search: term }),
            { ids: expected, total: expected.length },
            JSON.stringify(term),
          );
          const even = expected.filter((id) => logs.find((l) => l.id === id)!.log.endpointId === 'ep_even');
          const p = await b.repo.page('acc_a', { search: term, endpointId: 'ep_even', limit: 3, offset: 1 });
          assert.deepStrictEqual(
            { ids: ids(p.rows), total: p.total },
            { ids: even.slice(1, 4), total: even.length },
            `${JSON.stringify(term)} on ep_even`,
          );
        }
        for (let k = 0; k < 15; k++) {
          assert.ok((await pageIds(b, { search: terms[k]! })).ids.includes('log_large'), `term ${k} of the large body`);
        }
      });
    });

    test('stats equal statsFromLogs on whole-hour windows, and the figures counted by hand', async () => {
      await withLogs(async (b) => {
        const at = (hour: number, minute: number) => T0 + hour * HOUR + minute * 60_000;
        const rows: [string, string, number, 'success' | 'failed', LogVerification, number][] = [
          // id, endpoint, receivedAt, status, verification, size
          ['log_1', 'ep_b', at(0, 5), 'success', SKIPPED, 100],
          ['log_2', 'ep_a', at(0, 10), 'failed', failed('no_matching_signature'), 300],
          ['log_3', 'ep_a', at(0, 59), 'success', SKIPPED, 200],
          ['log_4', 'ep_a', at(1, 0), 'failed', failed('missing_header'), 50],
          ['log_5', 'ep_b', at(1, 30), 'failed', failed('no_matching_signature'), 1000],
          ['log_6', 'ep_a', at(2, 15), 'failed', { ...SKIPPED, result: 'invalid' }, 700],
          ['log_7', 'ep_a', at(2, 20), 'success', SKIPPED, 400],
          // Outside the window: before it, at its end, another account.
          ['log_8', 'ep_a', at(-1, 59), 'success', SKIPPED, 5],
          ['log_9', 'ep_a', at(3, 0), 'failed', failed('missing_header'), 5],
        ];
        for (const [id, endpointId, receivedAt, status, verification, size] of rows) {
          await put(b, id, { endpointId, receivedAt, status, verification, size, body: Buffer.alloc(size % 97) });
        }
        await put(b, 'log_other', { accountId: 'acc_b', receivedAt: at(0, 1), status: 'failed', size: 9 });
        // Pinned or not, a stored log is counted.
        await b.repo.setPinned('acc_a', 'log_7', true);
        await b.settle();

        const window = { fromMs: at(0, 0), toMs: at(3, 0), bucketMs: HOUR };
        const expected: LogStats = {
          cells: [
            { endpointId: 'ep_a', bucket: 0, success: 1, failed: 1, lastReceivedAt: at(0, 59) },
            { endpointId: 'ep_a', bucket: 1, success: 0, failed: 1, lastReceivedAt: at(1, 0) },
            { endpointId: 'ep_a', bucket: 2, success: 1, failed: 1, lastReceivedAt: at(2, 20) },
            { endpointId: 'ep_b', bucket: 0, success: 1, failed: 0, lastReceivedAt: at(0, 5) },
            { endpointId: 'ep_b', bucket: 1, success: 0, failed: 1, lastReceivedAt: at(1, 30) },
          ],
          failureReasons: [
            { reason: 'no_matching_signature', count: 2 },
            { reason: 'missing_header', count: 1 },
            { reason: 'unknown', count: 1 },
          ],
          // Sizes 50 100 200 300 400 700 1000: p50 the 4th, p95 the 7th (nearest rank).
          sizes: { count: 7, min: 50, max: 1000, avg: 2750 / 7, p50: 300, p95: 1000 },
        };
        assert.deepStrictEqual(await b.repo.stats('acc_a', window), expected);
        assert.deepStrictEqual(await b.repo.statsFromLogs('acc_a', window), expected);

        const twoHours = { fromMs: at(1, 0), toMs: at(3, 0), bucketMs: 2 * HOUR, endpointId: 'ep_a' };
        const ofEpA: LogStats = {
          cells: [{ endpointId: 'ep_a', bucket: 0, success: 1, failed: 2, lastReceivedAt: at(2, 20) }],
          failureReasons: [
            { reason: 'missing_header', count: 1 },
            { reason: 'unknown', count: 1 },
          ],
          sizes: { count: 3, min: 50, max: 700, avg: 1150 / 3, p50: 400, p95: 700 },
        };
        assert.deepStrictEqual(await b.repo.stats('acc_a', twoHours), ofEpA);
        assert.deepStrictEqual(await b.repo.statsFromLogs('acc_a', twoHours), ofEpA);

        const empty = { fromMs: at(10, 0), toMs: at(11, 0), bucketMs: HOUR };
        const none: LogStats = {
          cells: [],
          failureReasons: [],
          sizes: { count: 0, min: null, max: null, avg: null, p50: null, p95: null },
        };
        assert.deepStrictEqual(await b.repo.stats('acc_a', empty), none);
        assert.deepStrictEqual(await b.repo.statsFromLogs('acc_a', empty), none);
      });
    });

    test('deleteByIds takes the bodies and releases custom answers no other log of the account uses', async () => {
      await withLogs(async (b) => {
        const response = (body: string): CustomResponse => ({ status: 202, headers: [], body, delayMs: 0 });
        const shared = customAnswer(response('queued'));
        await put(b, 'log_1', { answer: shared });
        // Equal content from another object (the endpoint reloaded): the same stored answer.
        await put(b, 'log_2', { answer: customAnswer(response('queued')) });
        await put(b, 'log_3', { answer: customAnswer(response('other')) });
        await put(b, 'log_4', { accountId: 'acc_b', answer: customAnswer(response('queued')) });
        await put(b, 'log_5', { answer: VERIFICATION_FAILED, status: 'failed' });
        assert.deepStrictEqual(await b.stored(), { bodies: 5, customAnswers: 3 });

        await b.repo.deleteByIds('acc_a', ['log_1', 'log_missing']);
        await b.settle();
        assert.equal(await b.repo.find('acc_a', 'log_1'), undefined);
        assert.deepStrictEqual((await b.repo.find('acc_a', 'log_2'))?.answer, shared);
        assert.deepStrictEqual(await b.stored(), { bodies: 4, customAnswers: 3 });

        await b.repo.deleteByIds('acc_a', ['log_2', 'log_3', 'log_5']);
        await b.settle();
        assert.deepStrictEqual(await pageIds(b, {}), { ids: [], total: 0 });
        assert.deepStrictEqual((await b.repo.find('acc_b', 'log_4'))?.answer, shared);
        assert.deepStrictEqual(await b.stored(), { bodies: 1, customAnswers: 1 });
        // Nothing to delete: nothing changes, nothing fails.
        await b.repo.deleteByIds('acc_a', []);
        await b.settle();
      });
    });

    test("deleteForEndpoint takes the endpoint's logs of that account, pinned ones too, with bodies and answers", async () => {
      await withLogs(async (b) => {
        const answer = customAnswer({ status: 201, headers: [], body: 'made', delayMs: 0 });
        await put(b, 'log_1', { endpointId: 'ep_gone', answer });
        await put(b, 'log_2', { endpointId: 'ep_gone' });
        await put(b, 'log_3', { endpointId: 'ep_kept', answer });
        await put(b, 'log_4', { endpointId: 'ep_gone', accountId: 'acc_b' });
        await b.repo.setPinned('acc_a', 'log_2', true);
        await b.settle();
        assert.deepStrictEqual(await b.repo.clearable('acc_a', 'ep_gone'), { unpinnedIds: ['log_1'], pinned: 1 });

        await b.repo.deleteForEndpoint('acc_a', 'ep_gone');
        await b.settle();
        assert.equal(await b.repo.find('acc_a', 'log_1'), undefined);
        assert.equal(await b.repo.find('acc_a', 'log_2'), undefined);
        assert.deepStrictEqual((await b.repo.find('acc_a', 'log_3'))?.answer, answer);
        assert.ok(await b.repo.find('acc_b', 'log_4'));
        assert.deepStrictEqual(await b.stored(), { bodies: 2, customAnswers: 1 });
        await b.repo.deleteForEndpoint('acc_a', 'ep_kept');
        await b.settle();
        assert.deepStrictEqual(await b.stored(), { bodies: 1, customAnswers: 0 });
        assert.deepStrictEqual(await b.repo.clearable('acc_a', 'ep_kept'), { unpinnedIds: [], pinned: 0 });
      });
    });

    test('owned, clearable and setPinned: ids of the account only, oldest first, pins counted', async () => {
      await withLogs(async (b) => {
        for (const id of ['log_1', 'log_2', 'log_3', 'log_4', 'log_5']) await put(b, id);
        await put(b, 'log_b', { accountId: 'acc_b' });
        await b.repo.setPinned('acc_a', 'log_2', true);
        await b.repo.setPinned('acc_a', 'log_3', true);
        await b.repo.setPinned('acc_a', 'log_3', true);
        await b.repo.setPinned('acc_a', 'log_4', false);
        await b.settle();
        assert.deepStrictEqual(await b.repo.clearable('acc_a', 'ep_1'), {
          unpinnedIds: ['log_1', 'log_4', 'log_5'],
          pinned: 2,
        });
        assert.equal((await b.repo.findSummary('acc_a', 'log_3'))?.pinned, true);
        assert.equal((await b.repo.findSummary('acc_a', 'log_4'))?.pinned, false);
        const owned = await b.repo.owned('acc_a', ['log_4', 'log_1', 'log_b', 'log_missing', 'log_1']);
        assert.deepStrictEqual(
          owned.sort((x, y) => x.id.localeCompare(y.id)),
          [
            { id: 'log_1', endpointId: 'ep_1' },
            { id: 'log_4', endpointId: 'ep_1' },
          ],
        );
        assert.deepStrictEqual(await b.repo.owned('acc_a', []), []);
        assert.deepStrictEqual(await pageIds(b, { pinned: true }), { ids: ['log_3', 'log_2'], total: 2 });
      });
    });
  });
}
