import assert from 'node:assert/strict';
import type { ShareRepository } from '../../server/share/share-repository.ts';
import type { ShareRecord } from '../../server/share/share-types.ts';
import { describe, test } from '../helpers/node-test.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';
import type { SeedLog } from '../helpers/seed-log.ts';

/**
 * A share repository and the logs its links follow: `seedLog` inserts a log
 * straight into the backend's `logs` table (PostgreSQL's foreign key needs it),
 * `deleteLogs` deletes logs as retention or a user would.
 */
export interface ShareUnderTest {
  repo: ShareRepository;
  seedLog: (log: SeedLog) => Promise<void>;
  deleteLogs: (ids: readonly string[]) => Promise<void>;
}

/**
 * What must not differ between the backends of ShareRepository (its contract is
 * written on the interface). Records are compared with deepStrictEqual: a flag
 * read back as 0/1 or a time as a string fails.
 */
export function shareContract(harness: ContractHarness<ShareUnderTest>): void {
  const withShares = (fn: (under: ShareUnderTest) => Promise<void>) => withRepository(harness, fn);
  /** Seeds the logs of these links, then stores the links. */
  const stored = async ({ repo, seedLog }: ShareUnderTest, ...links: ShareRecord[]) => {
    for (const s of links) {
      await seedLog({ id: s.logId, accountId: s.accountId, endpointId: s.endpointId });
      await repo.replace(s);
    }
  };

  describe('ShareRepository contract', () => {
    test('findByHash and findForLog return exactly the record replace stored', async () => {
      await withShares(async (under) => {
        const a = share({ tokenHash: 'h_a', logId: 'log_a', redact: true, redactPath: false });
        // The other flags, and epoch ms at the last Date instant and at 2^53 - 1.
        const b = share({
          tokenHash: 'h_b',
          logId: 'log_b',
          redact: false,
          redactPath: true,
          createdAt: 8_640_000_000_000_000,
          expiresAt: Number.MAX_SAFE_INTEGER,
        });
        await stored(under, a, b);
        assert.deepStrictEqual(await under.repo.findByHash('h_a'), a);
        assert.deepStrictEqual(await under.repo.findForLog('acc_a', 'log_a'), a);
        assert.deepStrictEqual(await under.repo.findByHash('h_b'), b);
        assert.deepStrictEqual(await under.repo.findForLog('acc_a', 'log_b'), b);
      });
    });

    test("an unknown token or log, and another account's link, are not found", async () => {
      await withShares(async (under) => {
        await stored(under, share({ tokenHash: 'h_a', logId: 'log_a' }));
        assert.equal(await under.repo.findByHash('h_missing'), undefined);
        assert.equal(await under.repo.findByHash(''), undefined);
        assert.equal(await under.repo.findForLog('acc_a', 'log_missing'), undefined);
        assert.equal(await under.repo.findForLog('acc_b', 'log_a'), undefined);
      });
    });

    test("replace swaps the log's link: the old token is not found, other logs' links stay", async () => {
      await withShares(async (under) => {
        const first = share({ tokenHash: 'h_first', logId: 'log_a' });
        const other = share({ tokenHash: 'h_other', logId: 'log_b' });
        await stored(under, first, other);
        const second = share({
          tokenHash: 'h_second',
          logId: 'log_a',
          redact: false,
          redactPath: true,
          createdAt: 1_700_000_500_000,
          expiresAt: 1_700_003_600_000,
        });
        await under.repo.replace(second);
        assert.equal(await under.repo.findByHash('h_first'), undefined);
        assert.deepStrictEqual(await under.repo.findByHash('h_second'), second);
        assert.deepStrictEqual(await under.repo.findForLog('acc_a', 'log_a'), second);
        assert.deepStrictEqual(await under.repo.findByHash('h_other'), other);
      });
    });

    test('replaces of one log racing each other all succeed and leave one link', async () => {
      await withShares(async (under) => {
        await under.seedLog({ id: 'log_a', accountId: 'acc_a', endpointId: 'ep_1' });
        const racing = Array.from({ length: 8 }, (_, i) => share({ tokenHash: `h_${i}`, logId: 'log_a' }));
        await Promise.all(racing.map((s) => under.repo.replace(s)));
        const left = await under.repo.findForLog('acc_a', 'log_a');
        assert.ok(left, 'one link is left');
        assert.ok(racing.some((s) => s.tokenHash === left.tokenHash));
        const found = [];
        for (const s of racing) if ((await under.repo.findByHash(s.tokenHash)) !== undefined) found.push(s.tokenHash);
        assert.deepStrictEqual(found, [left.tokenHash]);
      });
    });

    test("deleteForLog revokes only that account's link of that log", async () => {
      await withShares(async (under) => {
        await stored(
          under,
          share({ tokenHash: 'h_gone', logId: 'log_gone' }),
          share({ tokenHash: 'h_kept', logId: 'log_kept' }),
        );
        // Another account's call, and a log without a link, change nothing and do not fail.
        await under.repo.deleteForLog('acc_b', 'log_gone');
        await under.repo.deleteForLog('acc_a', 'log_missing');
        assert.notEqual(await under.repo.findByHash('h_gone'), undefined);
        await under.repo.deleteForLog('acc_a', 'log_gone');
        await under.repo.deleteForLog('acc_a', 'log_gone');
        assert.equal(await under.repo.findByHash('h_gone'), undefined);
        assert.equal(await under.repo.findForLog('acc_a', 'log_gone'), undefined);
        assert.deepStrictEqual(
          await under.repo.findByHash('h_kept'),
          share({ tokenHash: 'h_kept', logId: 'log_kept' }),
        );
      });
    });

    test("deleteForEndpoint revokes only that account's links of that endpoint", async () => {
      await withShares(async (under) => {
        const links = [
          share({ tokenHash: 'h_a_gone_1', logId: 'log_a_gone_1', endpointId: 'ep_gone' }),
          share({ tokenHash: 'h_a_gone_2', logId: 'log_a_gone_2', endpointId: 'ep_gone' }),
          share({ tokenHash: 'h_a_kept', logId: 'log_a_kept', endpointId: 'ep_kept' }),
          // The same endpoint id in another account: the account scopes the delete too.
          share({ tokenHash: 'h_b_gone', logId: 'log_b_gone', endpointId: 'ep_gone', accountId: 'acc_b' }),
        ];
        await stored(under, ...links);
        await under.repo.deleteForEndpoint('acc_a', 'ep_gone');
        await under.repo.deleteForEndpoint('acc_a', 'ep_missing');
        const left = [];
        for (const s of links) if ((await under.repo.findByHash(s.tokenHash)) !== undefined) left.push(s.tokenHash);
        assert.deepStrictEqual(left, ['h_a_kept', 'h_b_gone']);
        assert.deepStrictEqual(await under.repo.findForLog('acc_b', 'log_b_gone'), links[3]);
      });
    });

    test("deleting a log removes its link and leaves another log's", async () => {
      await withShares(async (under) => {
        const gone = share({ tokenHash: 'h_gone', logId: 'log_gone' });
        const kept = share({ tokenHash: 'h_kept', logId: 'log_kept' });
        await stored(under, gone, kept);
        await under.deleteLogs(['log_gone']);
        assert.equal(await under.repo.findByHash('h_gone'), undefined);
        assert.equal(await under.repo.findForLog('acc_a', 'log_gone'), undefined);
        assert.deepStrictEqual(await under.repo.findByHash('h_kept'), kept);
      });
    });
  });
}

function share(over: Partial<ShareRecord> = {}): ShareRecord {
  return {
    tokenHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    accountId: 'acc_a',
    logId: 'log_1',
    endpointId: 'ep_1',
    redact: true,
    redactPath: true,
    createdAt: 1_700_000_000_000,
    expiresAt: 1_700_086_400_000,
    ...over,
  };
}
