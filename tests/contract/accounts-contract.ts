import assert from 'node:assert/strict';
import type { AccountsRepository } from '../../server/accounts/accounts-repository.ts';
import { describe, test } from '../helpers/node-test.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';

/**
 * An accounts repository, and a look at the row it stored. The interface reads
 * back only ids, so "an existing account keeps its name" is seen through
 * `stored`, which each harness answers with its backend's own SQL.
 */
export interface AccountsUnderTest {
  repo: AccountsRepository;
  stored: (id: string) => Promise<{ name: string; createdAt: number } | undefined>;
}

/** What must not differ between the backends of AccountsRepository (its contract is written on the interface). */
export function accountsContract(harness: ContractHarness<AccountsUnderTest>): void {
  const withAccounts = (fn: (under: AccountsUnderTest) => Promise<void>) => withRepository(harness, fn);
  /** Sorted: `allIds` promises no order. */
  const allIds = async (repo: AccountsRepository) => (await repo.allIds()).sort();

  describe('AccountsRepository contract', () => {
    test('an empty store has no accounts; an inserted one is listed and stored as given', async () => {
      await withAccounts(async ({ repo, stored }) => {
        assert.deepStrictEqual(await repo.allIds(), []);
        await repo.insertIfMissing('acc_alice', 'alice', 1_700_000_000_000);
        assert.deepStrictEqual(await repo.allIds(), ['acc_alice']);
        assert.deepStrictEqual(await stored('acc_alice'), { name: 'alice', createdAt: 1_700_000_000_000 });
      });
    });

    test('insertIfMissing is idempotent: a second insert with another name keeps the first', async () => {
      await withAccounts(async ({ repo, stored }) => {
        await repo.insertIfMissing('acc_alice', 'alice', 1_700_000_000_000);
        await repo.insertIfMissing('acc_alice', 'mallory', 1_800_000_000_000);
        await repo.insertIfMissing('acc_alice', 'alice', 1_900_000_000_000);
        assert.deepStrictEqual(await repo.allIds(), ['acc_alice']);
        assert.deepStrictEqual(await stored('acc_alice'), { name: 'alice', createdAt: 1_700_000_000_000 });
      });
    });

    test('inserts of one account at the same moment all succeed and store it once', async () => {
      await withAccounts(async ({ repo, stored }) => {
        const names = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'];
        await Promise.all(names.map((name, i) => repo.insertIfMissing('acc_race', name, 1_700_000_000_000 + i)));
        assert.deepStrictEqual(await repo.allIds(), ['acc_race']);
        // Whichever came first is kept whole: its name with its own createdAt.
        const row = await stored('acc_race');
        const i = names.indexOf(row?.name ?? '');
        assert.ok(i >= 0, `a stored name of the inserts, not ${row?.name}`);
        assert.deepStrictEqual(row, { name: names[i], createdAt: 1_700_000_000_000 + i });
      });
    });

    test('allIds lists every account, each once', async () => {
      await withAccounts(async ({ repo }) => {
        const ids = ['acc_c', 'acc_a', 'acc_b', 'acc_d'];
        for (const id of ids) await repo.insertIfMissing(id, id.slice(4), 1);
        await repo.insertIfMissing('acc_b', 'again', 2);
        assert.deepStrictEqual(await allIds(repo), ['acc_a', 'acc_b', 'acc_c', 'acc_d']);
      });
    });

    test('unicode, empty and long values and far epoch milliseconds come back exactly', async () => {
      await withAccounts(async ({ repo, stored }) => {
        // Not a leading U+FEFF: sql.js drops one from the start of a value it reads (its TextDecoder strips a BOM).
        const mixed = ' \uFEFF💳👩‍💻 支付 مدفوعات e\u0301 Ω\r\n\tÿ€𝄞 ';
        const accounts = [
          { id: 'acc_Zoë_😀', name: mixed, createdAt: Number.MAX_SAFE_INTEGER },
          { id: 'acc_empty', name: '', createdAt: 0 },
          { id: `acc_${'é𝄞'.repeat(500)}`, name: mixed.repeat(2000), createdAt: 8_640_000_000_000_000 },
        ];
        for (const a of accounts) await repo.insertIfMissing(a.id, a.name, a.createdAt);
        assert.deepStrictEqual(await allIds(repo), accounts.map((a) => a.id).sort());
        for (const a of accounts) assert.deepStrictEqual(await stored(a.id), { name: a.name, createdAt: a.createdAt });
        assert.equal(await stored('acc_missing'), undefined);
      });
    });
  });
}
