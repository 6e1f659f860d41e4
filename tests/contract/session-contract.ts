import assert from 'node:assert/strict';
import type { SessionRecord, SessionRepository } from '../../server/session/session-repository.ts';
import { describe, test } from '../helpers/node-test.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';

const NOW = 1_700_000_000_000;

/**
 * What must not differ between the backends of SessionRepository (its contract
 * is written on the interface). Records are compared with deepStrictEqual: a
 * time read back as a string fails.
 */
export function sessionContract(harness: ContractHarness<SessionRepository>): void {
  const withRepo = (fn: (repo: SessionRepository) => Promise<void>) => withRepository(harness, fn);
  /** The hashes of `hashes` still found, in the order given. */
  const found = async (repo: SessionRepository, hashes: readonly string[]) => {
    const left = [];
    for (const h of hashes) if ((await repo.find(h)) !== undefined) left.push(h);
    return left;
  };

  describe('SessionRepository contract', () => {
    test("find returns exactly the session inserted, each hash its own account's", async () => {
      await withRepo(async (repo) => {
        const alice = session({ idHash: 'h_alice' });
        // Epoch ms at the last Date instant and at 2^53 - 1.
        const bob = session({
          idHash: 'h_bob',
          accountId: 'acc_bob',
          accountName: 'bob@example.com',
          createdAt: 8_640_000_000_000_000,
          expiresAt: Number.MAX_SAFE_INTEGER,
        });
        await repo.insert(alice, [], NOW);
        await repo.insert(bob, [], NOW);
        assert.deepStrictEqual(await repo.find('h_alice'), alice);
        assert.deepStrictEqual(await repo.find('h_bob'), bob);
        assert.equal(await repo.find('h_missing'), undefined);
        assert.equal(await repo.find(''), undefined);
      });
    });

    test('an expired session is found until an insert prunes it', async () => {
      await withRepo(async (repo) => {
        const expired = session({ idHash: 'h_expired', expiresAt: NOW - 1 });
        await repo.insert(expired, [], NOW - 10);
        assert.deepStrictEqual(await repo.find('h_expired'), expired);
      });
    });

    test("insert prunes every account's sessions expired at or before now, and keeps later ones", async () => {
      await withRepo(async (repo) => {
        const stored = [
          session({ idHash: 'h_long_gone', expiresAt: NOW - 3_600_000 }),
          session({ idHash: 'h_at_now', expiresAt: NOW }),
          session({ idHash: 'h_other_account', accountId: 'acc_bob', accountName: 'bob', expiresAt: NOW }),
          session({ idHash: 'h_just_after', expiresAt: NOW + 1 }),
        ];
        for (const s of stored) await repo.insert(s, [], NOW - 7_200_000);
        await repo.insert(session({ idHash: 'h_new' }), [], NOW);
        assert.deepStrictEqual(await found(repo, [...stored.map((s) => s.idHash), 'h_new']), ['h_just_after', 'h_new']);
        assert.deepStrictEqual(await repo.find('h_just_after'), stored[3]);
      });
    });

    test('insert ends the replaced sessions and no other; unknown ones are ignored', async () => {
      await withRepo(async (repo) => {
        const hashes = ['h_replaced_1', 'h_replaced_2', 'h_kept'];
        for (const h of hashes) await repo.insert(session({ idHash: h }), [], NOW);
        const next = session({ idHash: 'h_next', accountId: 'acc_bob', accountName: 'bob' });
        await repo.insert(next, ['h_replaced_1', 'h_unknown', 'h_replaced_2'], NOW);
        assert.deepStrictEqual(await found(repo, [...hashes, 'h_next']), ['h_kept', 'h_next']);
        assert.deepStrictEqual(await repo.find('h_next'), next);
      });
    });

    test('an insert that fails prunes and ends nothing: the write is atomic', async () => {
      await withRepo(async (repo) => {
        const taken = session({ idHash: 'h_taken' });
        await repo.insert(taken, [], NOW - 10);
        await repo.insert(session({ idHash: 'h_replaced' }), [], NOW - 10);
        await repo.insert(session({ idHash: 'h_expiring', expiresAt: NOW }), [], NOW - 10);
        // The hash is taken: the insert fails, and the prune and the replaced session's end go with it.
        await assert.rejects(repo.insert(session({ idHash: 'h_taken', accountId: 'acc_bob' }), ['h_replaced'], NOW));
        assert.deepStrictEqual(await found(repo, ['h_taken', 'h_replaced', 'h_expiring']), [
          'h_taken',
          'h_replaced',
          'h_expiring',
        ]);
        assert.deepStrictEqual(await repo.find('h_taken'), taken);
      });
    });

    test('delete ends the listed sessions only; unknown hashes and an empty list change nothing', async () => {
      await withRepo(async (repo) => {
        const hashes = ['h_a', 'h_b', 'h_c'];
        for (const h of hashes) await repo.insert(session({ idHash: h }), [], NOW);
        await repo.delete([]);
        await repo.delete(['h_unknown']);
        assert.deepStrictEqual(await found(repo, hashes), hashes);
        await repo.delete(['h_a', 'h_unknown', 'h_c']);
        assert.deepStrictEqual(await found(repo, hashes), ['h_b']);
        assert.deepStrictEqual(await repo.find('h_b'), session({ idHash: 'h_b' }));
      });
    });
  });
}

function session(over: Partial<SessionRecord> = {}): SessionRecord {
  return {
    idHash: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
    accountId: 'acc_alice',
    accountName: 'alice',
    createdAt: NOW - 1000,
    expiresAt: NOW + 86_400_000,
    ...over,
  };
}
