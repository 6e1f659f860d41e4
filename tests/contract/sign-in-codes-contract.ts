import assert from 'node:assert/strict';
import { secretHash } from '../../server/session/secret-hash.ts';
import type { SignInCodeRecord, SignInCodeRepository } from '../../server/session/sign-in-code-repository.ts';
import { SIGN_IN_CODE_TTL_MS, SignInCodes } from '../../server/session/sign-in-codes.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { SeededRandom } from '../../server/support/random.ts';
import { describe, test } from '../helpers/node-test.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';

const NOW = 1_700_000_000_000;
const ALICE = { id: 'acc_alice', name: 'alice' };
const BOB = { id: 'acc_bob', name: 'bob@example.com' };

/** A backend's sign-in codes as two instances on it see them (the embedded backend has one: the same repository). */
export interface SignInCodesUnderTest {
  repo: SignInCodeRepository;
  /** Another instance's repository over the same data. */
  peer: SignInCodeRepository;
}

/**
 * What must not differ between the backends of SignInCodeRepository: a code
 * found while live, taken once, gone once expired, whichever instance asks.
 */
export function signInCodesContract(harness: ContractHarness<SignInCodesUnderTest>): void {
  const withCodes = (fn: (c: SignInCodesUnderTest) => Promise<void>) => withRepository(harness, fn);

  describe('SignInCodeRepository contract', () => {
    test('a code issued on one instance is peeked and redeemed once on another; a second redeem fails', async () => {
      await withCodes(async ({ repo, peer }) => {
        const clock = new ManualClock(NOW);
        const issuing = new SignInCodes(repo, clock, new SeededRandom(1));
        const redeeming = new SignInCodes(peer, clock, new SeededRandom(2));
        const { code, expiresAt } = await issuing.issue(ALICE);
        assert.equal(expiresAt, NOW + SIGN_IN_CODE_TTL_MS);
        assert.deepStrictEqual(await redeeming.peek(code), ALICE);
        assert.deepStrictEqual(await redeeming.peek(code), ALICE);
        assert.deepStrictEqual(await redeeming.redeem(code), ALICE);
        await assert.rejects(redeeming.redeem(code), { code: 'SIGN_IN_CODE_INVALID' });
        await assert.rejects(issuing.peek(code), { code: 'SIGN_IN_CODE_INVALID' });
      });
    });

    test('a code works until the last millisecond before it expires, never at or after', async () => {
      await withCodes(async ({ repo, peer }) => {
        const clock = new ManualClock(NOW);
        const codes = new SignInCodes(repo, clock, new SeededRandom(3));
        const other = new SignInCodes(peer, clock, new SeededRandom(4));
        const kept = await codes.issue(ALICE);
        const late = await codes.issue(BOB);
        clock.set(NOW + SIGN_IN_CODE_TTL_MS - 1);
        assert.deepStrictEqual(await other.peek(kept.code), ALICE);
        assert.deepStrictEqual(await other.redeem(kept.code), ALICE);
        clock.set(NOW + SIGN_IN_CODE_TTL_MS);
        await assert.rejects(other.peek(late.code), { code: 'SIGN_IN_CODE_INVALID' });
        await assert.rejects(other.redeem(late.code), { code: 'SIGN_IN_CODE_INVALID' });
      });
    });

    test('find and take answer exactly the account stored, by hash; unknown hashes answer nothing', async () => {
      await withCodes(async ({ repo, peer }) => {
        await repo.insert(record({ codeHash: 'h_alice' }), NOW);
        await repo.insert(record({ codeHash: 'h_bob', accountId: BOB.id, accountName: BOB.name }), NOW);
        assert.deepStrictEqual(await peer.find('h_bob', NOW), BOB);
        assert.deepStrictEqual(await peer.find('h_alice', NOW), ALICE);
        assert.equal(await peer.find('h_missing', NOW), undefined);
        assert.equal(await peer.take('h_missing', NOW), undefined);
        assert.deepStrictEqual(await peer.take('h_alice', NOW), ALICE);
        assert.equal(await repo.find('h_alice', NOW), undefined);
        assert.deepStrictEqual(await repo.find('h_bob', NOW), BOB);
      });
    });

    test('taking an expired code answers nothing and removes it', async () => {
      await withCodes(async ({ repo, peer }) => {
        await repo.insert(record({ codeHash: 'h_old', expiresAt: NOW }), NOW - 10);
        assert.equal(await peer.take('h_old', NOW), undefined);
        assert.equal(await repo.find('h_old', NOW - 5), undefined);
      });
    });

    test("an insert forgets every account's codes expired at or before its time, and keeps later ones", async () => {
      await withCodes(async ({ repo, peer }) => {
        const before = NOW - 3_600_000;
        await repo.insert(record({ codeHash: 'h_long_gone', expiresAt: NOW - 60_000 }), before);
        await repo.insert(record({ codeHash: 'h_at_now', expiresAt: NOW }), before);
        await repo.insert(
          record({ codeHash: 'h_bob', accountId: BOB.id, accountName: BOB.name, expiresAt: NOW }),
          before,
        );
        await repo.insert(record({ codeHash: 'h_just_after', expiresAt: NOW + 1 }), before);
        await peer.insert(record({ codeHash: 'h_new' }), NOW);
        const left = [];
        for (const h of ['h_long_gone', 'h_at_now', 'h_bob', 'h_just_after', 'h_new'])
          if ((await repo.find(h, before)) !== undefined) left.push(h);
        assert.deepStrictEqual(left, ['h_just_after', 'h_new']);
      });
    });

    test('of many redeems of one code at once, on two instances, exactly one gets the account', async () => {
      await withCodes(async ({ repo, peer }) => {
        await repo.insert(record({ codeHash: secretHash('the-code') }), NOW);
        const instance = (i: number) => (i % 2 === 0 ? repo : peer);
        // Every pooled connection opened first, so that the takes below really run at the same time.
        await Promise.all(Array.from({ length: 12 }, (_, i) => instance(i).find('h_warm_up', NOW)));
        const takes = Array.from({ length: 12 }, (_, i) => instance(i).take(secretHash('the-code'), NOW));
        const got = (await Promise.all(takes)).filter((a) => a !== undefined);
        assert.deepStrictEqual(got, [ALICE]);
      });
    });
  });
}

function record(over: Partial<SignInCodeRecord> = {}): SignInCodeRecord {
  return { codeHash: 'h_code', accountId: ALICE.id, accountName: ALICE.name, expiresAt: NOW + 600_000, ...over };
}
