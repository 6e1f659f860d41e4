import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { postgresBackend } from '../../server/storage/postgres/postgres-backend.ts';
import type { StorageBackend } from '../../server/storage/storage-backend.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { cryptoRandom } from '../../server/support/random.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { makeTempDir } from '../helpers/test-engine.ts';
import { waitFor } from '../helpers/wait-for.ts';

after(stopTestPostgres);

interface Round {
  instance: string;
  start: number;
  end: number;
}

describe('housekeeping with several instances on one PostgreSQL', () => {
  test('two instances ticking every few milliseconds never run a round at the same time', async () => {
    const database = await freshDatabase();
    const dirs = [await makeTempDir(), await makeTempDir()];
    const errors: unknown[] = [];
    const backends: StorageBackend[] = [];
    const rounds: Round[] = [];
    try {
      for (const [i, dataDir] of dirs.entries()) {
        const backend = postgresBackend({
          url: database.url,
          dataDir,
          retention: () => ({ maxLogsPerAccount: 10, maxBodyBytesPerAccount: 1_000_000 }),
          clock: new ManualClock(1_700_000_000_000),
          random: cryptoRandom,
          onError: (e) => errors.push(e),
          housekeepingIntervalMs: 2,
        });
        backends.push(backend);
        const instance = i === 0 ? 'A' : 'B';
        // Each round lasts many ticks of both instances: without the lock they would overlap at once.
        backend.housekeeping(async () => {
          const start = performance.now();
          await delay(15);
          rounds.push({ instance, start, end: performance.now() });
        });
      }
      // One after the other: instances starting together take turns on the migrations' lock anyway.
      for (const b of backends) await b.open([]);
      await waitFor(
        'rounds on both instances',
        () =>
          rounds.filter((r) => r.instance === 'A').length >= 3 && rounds.filter((r) => r.instance === 'B').length >= 3,
      );
      const sorted = [...rounds].sort((x, y) => x.start - y.start);
      for (const [i, r] of sorted.entries()) {
        const next = sorted[i + 1];
        if (next) assert.ok(next.start >= r.end, `a round of ${next.instance} began inside one of ${r.instance}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      for (const b of backends) await b.close();
      await database.drop();
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    }
  });
});
