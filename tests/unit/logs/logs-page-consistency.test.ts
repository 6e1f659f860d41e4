import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, test } from '../../helpers/node-test.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import type { NewLog } from '../../../server/logs/log-types.ts';
import { ACCEPTED } from '../../../server/logs/sender-answers.ts';
import { LogsService } from '../../../server/logs/logs-service.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { IdGenerator } from '../../../server/support/ids.ts';
import { cryptoRandom } from '../../../server/support/random.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

const account = { id: 'acc_page', name: 'page' };

const capture = (i: number): NewLog => ({
  accountId: account.id,
  endpointId: 'ep_page',
  method: 'POST',
  path: '/',
  query: {},
  rawHeaders: [['content-type', 'application/json']],
  contentType: 'application/json',
  size: 12,
  declaredSize: 12,
  body: Buffer.from(`{"i":${String(i).padStart(5, '0')}}`),
  truncated: false,
  sourceIp: '127.0.0.1',
  receivedAt: 1_700_000_000_000 + i,
  durationMs: 1,
  status: 'success',
  verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
  eventType: null,
  answer: ACCEPTED,
});

describe('log pages under concurrent writes', () => {
  test('every page agrees with its own total while deliveries are being applied', async () => {
    const dir = await makeTempDir('hookscope-page-');
    const store = await SqljsStore.open({ dir, migrations: [{ feature: 'logs', migrations: logsMigrations }] });
    try {
      const logs = new LogsService(
        new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 1_000_000, maxBodyBytesPerAccount: 1024 ** 3 })),
        new IdGenerator(new ManualClock(1_700_000_000_000), cryptoRandom),
        async () => false,
      );
      // Deliveries arriving all the time, several in flight.
      let written = 0;
      let stop = false;
      const writer = async (): Promise<void> => {
        while (!stop) await logs.record(capture(written++), 'applied');
      };
      const writers = Array.from({ length: 8 }, writer);

      const limit = 50;
      const pages = 300;
      let lastTotal = 0;
      const disagreements: string[] = [];
      for (let n = 0; n < pages; n++) {
        // Ask near the end of the list, where a page is short and a newer count shows.
        const offset = Math.max(0, lastTotal - 20 - (n % 3) * 10);
        const page = await logs.list(account, { limit, offset });
        const expected = Math.min(limit, Math.max(0, page.total - offset));
        if (page.logs.length !== expected || page.hasMore !== page.total > offset + limit) {
          disagreements.push(
            `offset ${offset}: ${page.logs.length} logs, total ${page.total}, hasMore ${page.hasMore}`,
          );
        }
        lastTotal = page.total;
      }
      stop = true;
      await Promise.all(writers);
      assert.ok(lastTotal > 100, `the writers kept writing during the reads (${lastTotal} logs)`);
      assert.deepEqual(disagreements, []);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
