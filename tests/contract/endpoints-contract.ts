import assert from 'node:assert/strict';
import type { CustomResponse } from '../../server/endpoints/custom-response.ts';
import type { EndpointRecord } from '../../server/endpoints/endpoint-types.ts';
import type { EndpointsRepository } from '../../server/endpoints/endpoints-repository.ts';
import { describe, test } from '../helpers/node-test.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';

/**
 * What must not differ between the backends of EndpointsRepository (its
 * contract is written on the interface). Records are compared with deepStrictEqual:
 * a number read back as a string, a boolean as 0/1, or '' as null fails.
 */
export function endpointsContract(harness: ContractHarness<EndpointsRepository>): void {
  const withRepo = (fn: (repo: EndpointsRepository) => Promise<void>) => withRepository(harness, fn);
  /** Sorted by id: `all` promises no order. */
  const all = async (repo: EndpointsRepository) => (await repo.all()).sort((a, b) => (a.id < b.id ? -1 : 1));

  describe('EndpointsRepository contract', () => {
    test('insert then all returns the exact record, every field set', async () => {
      await withRepo(async (repo) => {
        const e = endpoint({ id: 'ep_full' });
        await repo.insert(e);
        assert.deepStrictEqual(await repo.all(), [e]);
      });
    });

    test('null and empty strings are kept apart; zero and false stay zero and false', async () => {
      await withRepo(async (repo) => {
        const nulls = endpoint({
          id: 'ep_nulls',
          description: null,
          secret: null,
          previousSecret: null,
          previousSecretExpiresAt: null,
          signatureHeader: null,
          toleranceSeconds: null,
          forwardUrl: null,
          customResponse: null,
        });
        const empties = endpoint({
          id: 'ep_empties',
          name: '',
          description: '',
          secret: '',
          previousSecret: '',
          previousSecretExpiresAt: 0,
          signatureHeader: '',
          toleranceSeconds: 0,
          forwardUrl: '',
          customResponse: { status: 200, headers: [], body: '', delayMs: 0 },
          isActive: false,
          createdAt: 0,
          updatedAt: 0,
        });
        await repo.insert(nulls);
        await repo.insert(empties);
        assert.deepStrictEqual(await all(repo), [empties, nulls]);
      });
    });

    test('epoch milliseconds far ahead come back as the same numbers', async () => {
      await withRepo(async (repo) => {
        // The last instant a JavaScript Date holds, and the largest integer a number holds exactly.
        const e = endpoint({
          previousSecretExpiresAt: 8_640_000_000_000_000,
          createdAt: Number.MAX_SAFE_INTEGER,
          updatedAt: Number.MAX_SAFE_INTEGER,
          toleranceSeconds: 604_800,
        });
        await repo.insert(e);
        assert.deepStrictEqual(await repo.all(), [e]);
      });
    });

    test('all returns the endpoints of every account', async () => {
      await withRepo(async (repo) => {
        const mine = [endpoint({ id: 'ep_a1', accountId: 'acc_a' }), endpoint({ id: 'ep_a2', accountId: 'acc_a' })];
        const theirs = endpoint({ id: 'ep_b1', accountId: 'acc_b', validationType: 'github' });
        for (const e of [theirs, ...mine]) await repo.insert(e);
        assert.deepStrictEqual(await all(repo), [...mine, theirs]);
      });
    });

    test('find returns the exact record of any account by id, undefined for none or a deleted one', async () => {
      await withRepo(async (repo) => {
        const a = endpoint({ id: 'ep_a1', accountId: 'acc_a', customResponse: null });
        const b = endpoint({ id: 'ep_b1', accountId: 'acc_b', validationType: 'github', isActive: false });
        await repo.insert(a);
        await repo.insert(b);
        assert.deepStrictEqual(await repo.find('ep_a1'), a);
        assert.deepStrictEqual(await repo.find('ep_b1'), b);
        assert.equal(await repo.find('ep_none'), undefined);
        assert.equal(await repo.find('EP_A1'), undefined);
        await repo.delete('acc_a', 'ep_a1');
        assert.equal(await repo.find('ep_a1'), undefined);
        assert.deepStrictEqual(await repo.find('ep_b1'), b);
      });
    });

    test('update writes every mutable column and keeps accountId, validationType and createdAt', async () => {
      await withRepo(async (repo) => {
        const before = endpoint({ id: 'ep_up' });
        const other = endpoint({ id: 'ep_other' });
        await repo.insert(before);
        await repo.insert(other);
        const changed: EndpointRecord = {
          id: before.id,
          accountId: before.accountId,
          name: 'renamed',
          description: null,
          validationType: 'github',
          secret: 'whsec_new',
          previousSecret: 'whsec_old',
          previousSecretExpiresAt: 1_800_000_000_000,
          signatureHeader: 'X-Other-Signature',
          toleranceSeconds: 60,
          forwardUrl: 'http://127.0.0.1:3000/hooks/new',
          customResponse: { status: 503, headers: [{ name: 'Retry-After', value: '120' }], body: 'later', delayMs: 5 },
          isActive: false,
          createdAt: 1,
          updatedAt: before.updatedAt + 1,
        };
        await repo.update(changed);
        const expected = {
          ...changed,
          validationType: before.validationType,
          createdAt: before.createdAt,
        };
        assert.deepStrictEqual(await all(repo), [other, expected]);
      });
    });

    test("another account's update changes nothing and does not fail", async () => {
      await withRepo(async (repo) => {
        const e = endpoint({ id: 'ep_mine', accountId: 'acc_a' });
        await repo.insert(e);
        await repo.update({ ...e, accountId: 'acc_b', name: 'taken over', secret: 'whsec_stolen', isActive: false });
        await repo.update({ ...e, id: 'ep_missing', name: 'nobody' });
        assert.deepStrictEqual(await repo.all(), [e]);
      });
    });

    test('delete removes that endpoint and no other', async () => {
      await withRepo(async (repo) => {
        const gone = endpoint({ id: 'ep_gone' });
        const kept = endpoint({ id: 'ep_kept' });
        await repo.insert(gone);
        await repo.insert(kept);
        await repo.delete(gone.accountId, gone.id);
        assert.deepStrictEqual(await repo.all(), [kept]);
        await repo.delete(gone.accountId, gone.id);
        assert.deepStrictEqual(await repo.all(), [kept]);
      });
    });

    test("another account's delete changes nothing and does not fail", async () => {
      await withRepo(async (repo) => {
        const e = endpoint({ id: 'ep_mine', accountId: 'acc_a' });
        await repo.insert(e);
        await repo.delete('acc_b', e.id);
        assert.deepStrictEqual(await repo.all(), [e]);
      });
    });

    test('erasePreviousSecrets erases only the listed secrets whose grace is over, keeping their expiry', async () => {
      await withRepo(async (repo) => {
        const now = 1_700_000_000_000;
        const rotated = (id: string, expiresAt: number) =>
          endpoint({ id, previousSecret: `old_${id}`, previousSecretExpiresAt: expiresAt });
        const past = rotated('ep_1past', now - 1);
        const atNow = rotated('ep_2now', now);
        const future = rotated('ep_3future', now + 1);
        const unlisted = rotated('ep_4unlisted', now - 1);
        const otherAccount = { ...rotated('ep_5other', now - 1), accountId: 'acc_b' };
        for (const e of [past, atNow, future, unlisted, otherAccount]) await repo.insert(e);
        await repo.erasePreviousSecrets([], now);
        await repo.erasePreviousSecrets([past.id, atNow.id, future.id, otherAccount.id, 'ep_missing'], now);
        assert.deepStrictEqual(await all(repo), [
          { ...past, previousSecret: null },
          { ...atNow, previousSecret: null },
          future,
          unlisted,
          { ...otherAccount, previousSecret: null },
        ]);
      });
    });

    test('unicode and long values come back byte for byte', async () => {
      await withRepo(async (repo) => {
        // Astral characters, a joined emoji, a combining accent, right-to-left text, a BOM, CRLF, tabs, edge spaces.
        // Not a leading U+FEFF: sql.js drops one from the start of a value it reads (its TextDecoder strips a BOM).
        const mixed = ' \uFEFF💳👩‍💻 支付 مدفوعات e\u0301 Ω\r\n\tÿ€𝄞 ';
        const e = endpoint({
          id: 'ep_ü_😀',
          accountId: 'acc_Zoë',
          name: mixed,
          description: mixed.repeat(5000),
          secret: `whsec_${'𝄞é'.repeat(2000)}`,
          previousSecret: mixed,
          signatureHeader: 'X-Signature-\u00e9',
          forwardUrl: `http://127.0.0.1:3000/${'%E2%82%AC/ü'.repeat(200)}?q=${'a'.repeat(2048)}`,
          customResponse: { status: 200, headers: [{ name: 'X-Note', value: 'café\tß' }], body: mixed, delayMs: 0 },
        });
        await repo.insert(e);
        assert.deepStrictEqual(await repo.all(), [e]);
        await repo.update({ ...e, name: `${mixed}!`, description: mixed.repeat(7000) });
        assert.deepStrictEqual(await repo.all(), [{ ...e, name: `${mixed}!`, description: mixed.repeat(7000) }]);
      });
    });

    test('customResponse round-trips exactly, headers in order, case and repeats as given', async () => {
      await withRepo(async (repo) => {
        const answers: CustomResponse[] = [
          {
            status: 429,
            headers: [
              { name: 'retry-after', value: '30' },
              { name: 'X-Dup', value: 'one' },
              { name: 'x-dup', value: 'two' },
              { name: 'X-Dup', value: 'one' },
              { name: 'X-Latin1', value: '\u0080caf\u00e9\u00ff' },
              { name: 'X-Empty', value: '' },
            ],
            // JSON-looking text, quotes and backslashes, U+0000 and other control characters, 64 KiB in all.
            body: `{"error": "slow down", "path": "C:\\\\tmp\\n"}\u0000\u0001\u007f${'€'.repeat(21_000)}`,
            delayMs: 30_000,
          },
          { status: 204, headers: [], body: '', delayMs: 0 },
          {
            status: 599,
            headers: [{ name: 'Content-Type', value: 'text/plain; charset=utf-8' }],
            body: ' ',
            delayMs: 1,
          },
        ];
        const records = answers.map((customResponse, i) => endpoint({ id: `ep_${i}`, customResponse }));
        for (const e of records) await repo.insert(e);
        assert.deepStrictEqual(await all(repo), records);
        const moved = { ...records[0]!, customResponse: answers[2]! };
        await repo.update(moved);
        await repo.update({ ...records[2]!, customResponse: null });
        assert.deepStrictEqual(await all(repo), [moved, records[1], { ...records[2]!, customResponse: null }]);
      });
    });
  });
}

/** A record with every field set to a distinct value; tests override what they look at. */
function endpoint(overrides: Partial<EndpointRecord> = {}): EndpointRecord {
  return {
    id: 'ep_1',
    accountId: 'acc_a',
    name: 'Stripe payments',
    description: 'checkout.session.completed and refunds',
    validationType: 'stripe',
    secret: 'whsec_current',
    previousSecret: 'whsec_previous',
    previousSecretExpiresAt: 1_700_000_600_000,
    signatureHeader: 'X-Hook-Signature',
    toleranceSeconds: 300,
    forwardUrl: 'http://127.0.0.1:3000/webhooks/stripe',
    customResponse: {
      status: 202,
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'X-Request-Id', value: 'abc' },
      ],
      body: '{"received":true}',
      delayMs: 250,
    },
    isActive: true,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_500,
    ...overrides,
  };
}
