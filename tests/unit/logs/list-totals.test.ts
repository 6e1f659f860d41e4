import { newLog } from '../../helpers/new-log.ts';
import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import type { LogStatus, NewLog } from '../../../server/logs/log-types.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { headersInline } from '../../helpers/headers-inline.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import type { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { openLogsStore } from '../../helpers/logs-store.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-list-totals-');
const ACCOUNTS = ['acc_a', 'acc_b'];
const MAX_LOGS = 40;

const delivery = (accountId: string, endpointId: string, status: LogStatus): NewLog =>
  newLog('{"ok":true}', status, { accountId, endpointId });

const repoOn = (store: SqljsStore) =>
  new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: MAX_LOGS, maxBodyBytesPerAccount: 1e9 }));

/** Each account's list total, alone and by status, against COUNT(*). */
async function totalsAgree(store: SqljsStore, repo: SqljsLogsRepository, when: string): Promise<void> {
  for (const account of ACCOUNTS)
    for (const status of [undefined, 'success', 'failed'] as const) {
      const { total } = await repo.page(account, { limit: 1, offset: 0, ...(status ? { status } : {}) });
      const counted = await store.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM logs WHERE account_id = ? ${status ? 'AND status = ?' : ''}`,
        status ? [account, status] : [account],
      );
      assert.equal(total, counted?.n, `${when}: ${account} ${status ?? 'all'}`);
    }
}

// The list's total for the account alone or with a status is read from log_stats (migration
// 12's failed_count, kept by triggers): it must be what COUNT(*) gives after every kind of
// insert and delete.
describe("the list's totals read from the account's counts", () => {
  test('equal the counted logs through inserts, retention, deletes by id and by endpoint', async () => {
    const store = await openLogsStore(await tempDir());
    const repo = repoOn(store);
    const agree = (when: string) => totalsAgree(store, repo, when);
    try {
      let n = 0;
      const insert = async (count: number): Promise<void> => {
        for (let i = 0; i < count; i++, n++) {
          const account = ACCOUNTS[n % 2]!;
          await repo.insert(
            `log_${n}`,
            delivery(account, `ep_${n % 3}`, n % 3 === 0 ? 'failed' : 'success'),
            'applied',
          );
        }
      };
      await agree('empty');
      await insert(30);
      await agree('inserted');
      const page = await repo.page('acc_a', { limit: 200, offset: 0, status: 'failed' });
      assert.ok(page.total > 0);
      await repo.deleteByIds('acc_a', [page.rows[0]!.id, 'log_1']);
      await agree('deleted by id');
      await repo.deleteForEndpoint('acc_b', 'ep_0');
      await agree('deleted for an endpoint');
      // Past MAX_LOGS per account: retention evicts the oldest.
      await insert(100);
      const a = await repo.page('acc_a', { limit: 1, offset: 0 });
      assert.equal(a.total, MAX_LOGS, 'retention held the account at its limit');
      await agree('evicted by retention');
    } finally {
      await store.close();
    }
  });

  test('count the failed logs a store held before the step', async () => {
    const dir = await tempDir();
    const before = await openLogsStore(
      dir,
      logsMigrations.filter((m) => m.number < 12),
    );
    try {
      const repo = new SqljsLogsRepository(headersInline(before), () => ({
        maxLogsPerAccount: MAX_LOGS,
        maxBodyBytesPerAccount: 1e9,
      }));
      for (let n = 0; n < 20; n++)
        await repo.insert(
          `log_${n}`,
          delivery(ACCOUNTS[n % 2]!, 'ep_1', n % 4 === 0 ? 'failed' : 'success'),
          'applied',
        );
    } finally {
      await before.close();
    }
    const store = await openLogsStore(dir);
    try {
      await totalsAgree(store, repoOn(store), 'upgraded');
    } finally {
      await store.close();
    }
  });
});
