import assert from 'node:assert/strict';
import type { RemediationRepository, StoredAnalysis } from '../../server/remediation/remediation-repository.ts';
import { describe, test } from '../helpers/node-test.ts';
import type { SeedLog } from '../helpers/seed-log.ts';
import { withRepository, type ContractHarness } from './contract-harness.ts';

/**
 * A remediation repository and the logs its analyses follow: `seedLog` inserts a
 * log straight into the backend's `logs` table, `deleteLogs` deletes logs as
 * retention or a user would.
 */
export interface RemediationUnderTest {
  repo: RemediationRepository;
  seedLog: (log: SeedLog) => Promise<void>;
  deleteLogs: (ids: readonly string[]) => Promise<void>;
}

/**
 * What must not differ between the backends of RemediationRepository (its
 * contract is written on the interface). An analysis found is compared with
 * deepStrictEqual and as JSON text, so a changed value, a number turned string
 * or keys in another order fail.
 */
export function remediationContract(harness: ContractHarness<RemediationUnderTest>): void {
  const withUnder = (fn: (under: RemediationUnderTest) => Promise<void>) => withRepository(harness, fn);
  /** The repository, each log seeded before its first analysis is saved (an analysis follows a log). */
  const withRepo = (fn: (repo: RemediationRepository) => Promise<void>) =>
    withUnder(async ({ repo, seedLog }) => {
      const seeded = new Set<string>();
      await fn({
        find: (accountId, logId) => repo.find(accountId, logId),
        deleteForEndpoint: (accountId, endpointId) => repo.deleteForEndpoint(accountId, endpointId),
        save: async (accountId, endpointId, a, createdAt) => {
          if (!seeded.has(a.logId)) await seedLog({ id: a.logId, accountId, endpointId });
          seeded.add(a.logId);
          await repo.save(accountId, endpointId, a, createdAt);
        },
      });
    });
  const assertSame = (found: StoredAnalysis | undefined, saved: StoredAnalysis) => {
    assert.deepStrictEqual(found, saved);
    assert.equal(JSON.stringify(found), JSON.stringify(saved));
  };

  describe('RemediationRepository contract', () => {
    test('find returns exactly what save stored, every field set', async () => {
      await withRepo(async (repo) => {
        const a = analysis({ logId: 'log_1' });
        await repo.save('acc_a', 'ep_1', a, 1_700_000_000_000);
        assertSame(await repo.find('acc_a', 'log_1'), a);
      });
    });

    test("an unknown log's analysis, and another account's, are not found", async () => {
      await withRepo(async (repo) => {
        await repo.save('acc_a', 'ep_1', analysis({ logId: 'log_1' }), 1);
        assert.equal(await repo.find('acc_a', 'log_missing'), undefined);
        assert.equal(await repo.find('acc_b', 'log_1'), undefined);
        assert.equal(await repo.find('', 'log_1'), undefined);
      });
    });

    test("save twice replaces the log's analysis and leaves other logs' alone", async () => {
      await withRepo(async (repo) => {
        const first = analysis({ logId: 'log_1' });
        const other = analysis({ logId: 'log_2', summary: 'the other log' });
        await repo.save('acc_a', 'ep_1', first, 1_700_000_000_000);
        await repo.save('acc_a', 'ep_1', other, 1_700_000_000_000);
        // A refresh whose LLM failed: no explanation any more, an llmError instead, fewer causes.
        const refreshed: StoredAnalysis = {
          logId: 'log_1',
          summary: 'refreshed',
          causes: [],
          engine: 'rules',
          llmError: 'The LLM answered 503.',
          createdAt: '2026-11-24T10:05:00.000Z',
        };
        await repo.save('acc_a', 'ep_1', refreshed, 1_700_000_300_000);
        assertSame(await repo.find('acc_a', 'log_1'), refreshed);
        assertSame(await repo.find('acc_a', 'log_2'), other);
      });
    });

    test("deleteForEndpoint removes only that account's analyses of that endpoint", async () => {
      await withRepo(async (repo) => {
        const saved: [account: string, endpoint: string, logId: string][] = [
          ['acc_a', 'ep_gone', 'log_a_gone_1'],
          ['acc_a', 'ep_gone', 'log_a_gone_2'],
          ['acc_a', 'ep_kept', 'log_a_kept'],
          // The same endpoint id in another account: the account scopes the delete too.
          ['acc_b', 'ep_gone', 'log_b_gone'],
        ];
        for (const [account, endpoint, logId] of saved) await repo.save(account, endpoint, analysis({ logId }), 1);
        await repo.deleteForEndpoint('acc_a', 'ep_gone');
        await repo.deleteForEndpoint('acc_a', 'ep_gone');
        await repo.deleteForEndpoint('acc_a', 'ep_missing');
        const left = [];
        for (const [account, , logId] of saved) {
          if ((await repo.find(account, logId)) !== undefined) left.push(logId);
        }
        assert.deepStrictEqual(left, ['log_a_kept', 'log_b_gone']);
        assertSame(await repo.find('acc_b', 'log_b_gone'), analysis({ logId: 'log_b_gone' }));
      });
    });

    test("deleting a log removes its analysis and leaves another log's", async () => {
      await withUnder(async ({ repo, seedLog, deleteLogs }) => {
        for (const id of ['log_gone', 'log_kept']) {
          await seedLog({ id, accountId: 'acc_a', endpointId: 'ep_1' });
          await repo.save('acc_a', 'ep_1', analysis({ logId: id }), 1);
        }
        await deleteLogs(['log_gone']);
        assert.equal(await repo.find('acc_a', 'log_gone'), undefined);
        assertSame(await repo.find('acc_a', 'log_kept'), analysis({ logId: 'log_kept' }));
      });
    });

    test('an analysis of a log deleted meanwhile is no error and is not kept', async () => {
      await withUnder(async ({ repo, seedLog, deleteLogs }) => {
        await seedLog({ id: 'log_gone', accountId: 'acc_a', endpointId: 'ep_1' });
        await deleteLogs(['log_gone']);
        await repo.save('acc_a', 'ep_1', analysis({ logId: 'log_gone' }), 1);
        await repo.save('acc_a', 'ep_1', analysis({ logId: 'log_never' }), 1);
        assert.equal(await repo.find('acc_a', 'log_gone'), undefined);
        assert.equal(await repo.find('acc_a', 'log_never'), undefined);
      });
    });

    test('unicode, U+0000, long text, fractional numbers and key order come back exactly', async () => {
      await withRepo(async (repo) => {
        const mixed = ' \uFEFF💳👩‍💻 支付 مدفوعات e\u0301 Ω\r\n\tÿ€𝄞 ';
        // Keys deliberately out of the schema's order: the JSON text is kept as written.
        const a: StoredAnalysis = {
          createdAt: '2026-11-24T10:00:00.000Z',
          engine: 'rules+llm',
          causes: [
            {
              steps: [mixed, 'a\u0000b', '\\"quoted\\"'],
              snippets: { python: `print("${mixed}")`, node: 'console.log("\u0000\u0001\u007f")' },
              evidence: [
                { value: '\u0080caf\u00e9\u00ff', label: 'X-Latin1' },
                'a sentence with a lone surrogate \ud800 and U+0000 \u0000',
                { label: '', value: '' },
              ],
              confidence: 1 / 3,
              title: mixed,
              code: 'encoding_mismatch',
            },
            { ...cause(), confidence: 0 },
            { ...cause(), confidence: 1 },
          ],
          explanation: `${mixed}\u0000`.repeat(20_000),
          summary: '',
          logId: 'log_ü_😀',
        };
        await repo.save('acc_Zoë', 'ep_é', a, Number.MAX_SAFE_INTEGER);
        assertSame(await repo.find('acc_Zoë', 'log_ü_😀'), a);
      });
    });
  });
}

function cause(): StoredAnalysis['causes'][number] {
  return {
    code: 'previous_secret',
    title: 'Signed with the previous secret',
    confidence: 0.95,
    evidence: [
      'The signature matches the secret rotated out at 10:00.',
      { label: 'Header', value: 'Stripe-Signature' },
    ],
    steps: ['Update the sender to the new secret.'],
    snippets: { node: 'const secret = process.env.SECRET;', python: 'secret = os.environ["SECRET"]' },
  };
}

/** An analysis with every field set; tests override what they look at. */
function analysis(overrides: Partial<StoredAnalysis> = {}): StoredAnalysis {
  return {
    logId: 'log_1',
    summary: 'The delivery was signed with the previous secret.',
    causes: [cause(), { ...cause(), code: 'timestamp_skew', title: 'Clock skew', confidence: 0.4 }],
    engine: 'rules+llm',
    explanation: 'Rotate the secret on the sender too.',
    createdAt: '2026-11-24T10:00:00.000Z',
    ...overrides,
  };
}
