import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SNAPSHOT_FILE } from '../../../server/store/journal-files.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { newLog } from '../../helpers/new-log.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-stored-headers-');
const ROOMY = () => ({ maxLogsPerAccount: 1e6, maxBodyBytesPerAccount: 1 << 30 });

// The logs_headers_spilled migration: a log's headers live in the blob files with its body, so
// the in-memory database (and every snapshot) holds none of their bytes; reads give them back.
describe('headers in the blob files (sql.js)', () => {
  test('stored out of the database, read back exactly, overwritten when the log is deleted', async () => {
    const dir = await tempDir();
    const store = await SqljsStore.open({ dir, migrations: [{ feature: 'logs', migrations: logsMigrations }] });
    try {
      const repo = new SqljsLogsRepository(store, ROOMY);
      const rawHeaders: [string, string][] = [
        ['x-marker', 'header-only-marker-31337'],
        ['content-type', 'application/json'],
      ];
      await repo.insert('log_h', newLog('{"b":1}', 'success', { rawHeaders }), 'applied');
      assert.deepEqual((await repo.find('acc_a', 'log_h'))?.rawHeaders, rawHeaders);
      assert.deepEqual((await repo.page('acc_a', { limit: 10, offset: 0 })).rows[0]?.rawHeaders, rawHeaders);
      const ids = async (search: string) =>
        (await repo.page('acc_a', { limit: 10, offset: 0, search })).rows.map((l) => l.id);
      assert.deepEqual(await ids('header-only-marker'), ['log_h']);

      const row = await store.get<{ raw_headers: string; headers_at: number; headers_length: number }>(
        'SELECT raw_headers, headers_at, headers_length FROM logs',
      );
      assert.equal(row?.raw_headers, '');
      assert.equal(row?.headers_length, Buffer.byteLength(JSON.stringify(rawHeaders)));
      await store.checkpoint();
      const snapshot = await readFile(join(dir, SNAPSHOT_FILE));
      assert.equal(snapshot.includes('header-only-marker-31337'), false);

      await repo.deleteByIds('acc_a', ['log_h']);
      const left = await store.get<{ v: Uint8Array }>('SELECT blob_value(?, ?) AS v', [
        row.headers_at,
        row.headers_length,
      ]);
      assert.equal(Buffer.from(left!.v).equals(Buffer.alloc(row.headers_length)), true);
    } finally {
      await store.close();
    }
  });
});
