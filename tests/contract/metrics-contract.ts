import assert from 'node:assert/strict';
import type { MetricsRepository, RejectionCell, RejectionTally } from '../../server/metrics/metrics-repository.ts';
import { describe, test } from '../helpers/node-test.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';

const MINUTE = 60_000;
/** A whole minute (epoch ms). */
const M0 = 1_700_000_040_000;
const keepAll = (): number => 0;

/**
 * What must not differ between the backends of MetricsRepository (its contract
 * is written on the interface). Cells are compared with deepStrictEqual, sorted
 * (`rejections` promises no order): a count read back as a string fails.
 */
export function metricsContract(harness: ContractHarness<MetricsRepository>): void {
  const withRepo = (fn: (repo: MetricsRepository) => Promise<void>) => withRepository(harness, fn);
  const cells = async (repo: MetricsRepository, ...args: Parameters<MetricsRepository['rejections']>) =>
    (await repo.rejections(...args)).sort(
      (a, b) => a.endpointId.localeCompare(b.endpointId) || a.bucket - b.bucket || a.reason.localeCompare(b.reason),
    );
  /** Every cell of `accountId` a minute at a time between `fromMs` and `toMs`. */
  const minutes = (repo: MetricsRepository, accountId: string, fromMs: number, toMs: number) =>
    cells(repo, accountId, fromMs, toMs, MINUTE);

  describe('MetricsRepository contract', () => {
    test('countRejections adds up per account, endpoint, minute and reason, keeping the latest lastAt', async () => {
      await withRepo(async (repo) => {
        await repo.countRejections(
          [
            tally({ endpointId: 'ep_1', reason: 'rate_limited', count: 3, lastAt: M0 + 10_000 }),
            tally({ endpointId: 'ep_1', reason: 'endpoint_inactive', count: 1, lastAt: M0 + 5_000 }),
            tally({ endpointId: 'ep_2', reason: 'rate_limited', count: 2, lastAt: M0 + 1_000 }),
            tally({ endpointId: 'ep_1', minute: M0 + MINUTE, reason: 'rate_limited', count: 1, lastAt: M0 + 61_000 }),
          ],
          keepAll,
        );
        await repo.countRejections(
          [
            // Earlier than the stored lastAt: the stored one stays.
            tally({ endpointId: 'ep_1', reason: 'rate_limited', count: 4, lastAt: M0 + 2_000 }),
            // The same cell twice in one call: both add up.
            tally({ endpointId: 'ep_2', reason: 'rate_limited', count: 1, lastAt: M0 + 59_999 }),
            tally({ endpointId: 'ep_2', reason: 'rate_limited', count: 5, lastAt: M0 + 30_000 }),
          ],
          keepAll,
        );
        await repo.countRejections([], keepAll);
        assert.deepStrictEqual(await minutes(repo, 'acc_a', M0, M0 + 2 * MINUTE), [
          cell({ endpointId: 'ep_1', bucket: 0, reason: 'endpoint_inactive', count: 1, lastAt: M0 + 5_000 }),
          cell({ endpointId: 'ep_1', bucket: 0, reason: 'rate_limited', count: 7, lastAt: M0 + 10_000 }),
          cell({ endpointId: 'ep_1', bucket: 1, reason: 'rate_limited', count: 1, lastAt: M0 + 61_000 }),
          cell({ endpointId: 'ep_2', bucket: 0, reason: 'rate_limited', count: 8, lastAt: M0 + 59_999 }),
        ]);
      });
    });

    test("countRejections prunes each tallied account's cells before its own cut, and no other account's", async () => {
      await withRepo(async (repo) => {
        const seeded = [-2, -1, 0].flatMap((m) =>
          ['acc_a', 'acc_b', 'acc_c'].map((accountId) =>
            tally({ accountId, minute: M0 + m * MINUTE, lastAt: M0 + m * MINUTE }),
          ),
        );
        await repo.countRejections(seeded, keepAll);
        const cuts: Record<string, number> = { acc_a: M0 - MINUTE, acc_c: M0 };
        await repo.countRejections(
          [tally({ accountId: 'acc_a', minute: M0 + MINUTE }), tally({ accountId: 'acc_c', minute: M0 + MINUTE })],
          (accountId) => cuts[accountId]!,
        );
        const bucketsOf = async (accountId: string) =>
          (await minutes(repo, accountId, M0 - 2 * MINUTE, M0 + 2 * MINUTE)).map((c) => c.bucket);
        // Buckets count minutes from M0 - 2 min: the cut minute itself is kept.
        assert.deepStrictEqual(await bucketsOf('acc_a'), [1, 2, 3]);
        assert.deepStrictEqual(await bucketsOf('acc_b'), [0, 1, 2]);
        assert.deepStrictEqual(await bucketsOf('acc_c'), [2, 3]);
      });
    });

    test('rejections sums whole buckets over [fromMs, toMs): a minute at fromMs is in, one at toMs out', async () => {
      await withRepo(async (repo) => {
        const at = (minutes: number, count: number, reason = 'rate_limited') =>
          tally({ minute: M0 + minutes * MINUTE, reason, count, lastAt: M0 + minutes * MINUTE + 59_999 - count });
        await repo.countRejections(
          [
            at(-1, 1), // before fromMs
            at(0, 2), // fromMs itself: bucket 0
            at(4, 4), // the last minute of bucket 0
            at(1, 8, 'endpoint_inactive'), // bucket 0, another reason: its own cell
            at(5, 16), // the first minute of bucket 1
            at(14, 32), // the last minute before toMs: bucket 2
            at(15, 64), // toMs itself: out
          ],
          keepAll,
        );
        assert.deepStrictEqual(await cells(repo, 'acc_a', M0, M0 + 15 * MINUTE, 5 * MINUTE), [
          cell({ bucket: 0, reason: 'endpoint_inactive', count: 8, lastAt: M0 + MINUTE + 59_991 }),
          cell({ bucket: 0, reason: 'rate_limited', count: 6, lastAt: M0 + 4 * MINUTE + 59_995 }),
          cell({ bucket: 1, reason: 'rate_limited', count: 16, lastAt: M0 + 5 * MINUTE + 59_983 }),
          cell({ bucket: 2, reason: 'rate_limited', count: 32, lastAt: M0 + 14 * MINUTE + 59_967 }),
        ]);
        // One bucket spanning the window, as the refusals read asks.
        assert.deepStrictEqual(await cells(repo, 'acc_a', M0, M0 + 15 * MINUTE, 15 * MINUTE), [
          cell({ bucket: 0, reason: 'endpoint_inactive', count: 8, lastAt: M0 + MINUTE + 59_991 }),
          cell({ bucket: 0, reason: 'rate_limited', count: 54, lastAt: M0 + 14 * MINUTE + 59_967 }),
        ]);
      });
    });

    test("rejections gives only the endpoint asked for, and never another account's", async () => {
      await withRepo(async (repo) => {
        await repo.countRejections(
          [
            tally({ endpointId: 'ep_1', count: 1 }),
            tally({ endpointId: 'ep_2', count: 2 }),
            tally({ accountId: 'acc_b', endpointId: 'ep_1', count: 4 }),
          ],
          keepAll,
        );
        assert.deepStrictEqual(await cells(repo, 'acc_a', M0, M0 + MINUTE, MINUTE, 'ep_2'), [
          cell({ endpointId: 'ep_2', count: 2 }),
        ]);
        assert.deepStrictEqual(await cells(repo, 'acc_a', M0, M0 + MINUTE, MINUTE, 'ep_1'), [
          cell({ endpointId: 'ep_1', count: 1 }),
        ]);
        assert.deepStrictEqual(await cells(repo, 'acc_a', M0, M0 + MINUTE, MINUTE, 'ep_missing'), []);
        assert.deepStrictEqual(await cells(repo, 'acc_b', M0, M0 + MINUTE, MINUTE), [
          cell({ endpointId: 'ep_1', count: 4 }),
        ]);
        assert.deepStrictEqual(await cells(repo, 'acc_none', M0, M0 + MINUTE, MINUTE), []);
      });
    });

    test('countRejections running at the same time all add up', async () => {
      await withRepo(async (repo) => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => repo.countRejections([tally({ count: 1, lastAt: M0 + i })], keepAll)),
        );
        assert.deepStrictEqual(await minutes(repo, 'acc_a', M0, M0 + MINUTE), [cell({ count: 20, lastAt: M0 + 19 })]);
      });
    });

    test('large counts and times at the end of Date come back exact, as numbers', async () => {
      await withRepo(async (repo) => {
        const lastDate = 8_640_000_000_000_000;
        const minute = lastDate - MINUTE;
        await repo.countRejections([tally({ minute, count: 2 ** 40, lastAt: lastDate - 1 })], keepAll);
        await repo.countRejections([tally({ minute, count: 2 ** 40, lastAt: minute })], keepAll);
        assert.deepStrictEqual(await minutes(repo, 'acc_a', minute, lastDate), [
          cell({ count: 2 ** 41, lastAt: lastDate - 1 }),
        ]);
      });
    });
  });
}

function tally(over: Partial<RejectionTally> = {}): RejectionTally {
  return {
    accountId: 'acc_a',
    endpointId: 'ep_1',
    minute: M0,
    reason: 'rate_limited',
    count: 1,
    lastAt: M0 + 1_000,
    ...over,
  };
}

function cell(over: Partial<RejectionCell> = {}): RejectionCell {
  return { endpointId: 'ep_1', bucket: 0, reason: 'rate_limited', count: 1, lastAt: M0 + 1_000, ...over };
}
