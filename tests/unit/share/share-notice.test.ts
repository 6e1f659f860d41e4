import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from '../../helpers/node-test.ts';
import { EventBus } from '../../../server/events/event-bus.ts';
import { logsMigrations } from '../../../server/logs/logs-migrations.ts';
import { LogsService } from '../../../server/logs/logs-service.ts';
import { ACCEPTED } from '../../../server/logs/sender-answers.ts';
import { shareMigrations } from '../../../server/share/share-migrations.ts';
import { ShareService } from '../../../server/share/share-service.ts';
import { SqljsStore } from '../../../server/store/sqljs-store.ts';
import { SqljsLogsRepository } from '../../../server/storage/sqljs/logs-sqljs.ts';
import { SqljsShareRepository } from '../../../server/storage/sqljs/share-sqljs.ts';
import { BaseUrls } from '../../../server/support/base-urls.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { IdGenerator } from '../../../server/support/ids.ts';
import { cryptoRandom } from '../../../server/support/random.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

// The public localtunnel service cannot be reached from this machine, so the
// tunnel's notice is given here as the function the engine wires to the tunnel.
describe('share links and the browser notice of the public URL', () => {
  const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
  const account = { id: 'acc_test', name: 'test' };
  let dir: string;
  let store: SqljsStore;
  let logId: string;
  const urls = new BaseUrls();
  let notice: string | null = 'browsers meet a warning page';
  let shares: ShareService;
  before(async () => {
    dir = await makeTempDir();
    store = await SqljsStore.open({
      dir,
      migrations: [
        { feature: 'logs', migrations: logsMigrations },
        { feature: 'share', migrations: shareMigrations },
      ],
      clock,
    });
    const logs = new LogsService(
      new SqljsLogsRepository(store, () => ({ maxLogsPerAccount: 100, maxBodyBytesPerAccount: 1 << 20 })),
      new IdGenerator(clock, cryptoRandom),
      async () => false,
    );
    urls.receiver = 'http://127.0.0.1:4681';
    ({ id: logId } = await logs.record(
      {
        accountId: account.id,
        endpointId: 'ep_test',
        method: 'POST',
        path: '/',
        query: {},
        rawHeaders: [],
        contentType: null,
        size: 2,
        declaredSize: 2,
        body: Buffer.from('{}'),
        truncated: false,
        sourceIp: '127.0.0.1',
        receivedAt: clock.now(),
        durationMs: 0,
        status: 'success',
        verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
        eventType: null,
        answer: ACCEPTED,
      },
      'applied',
    ));
    shares = new ShareService({
      repo: new SqljsShareRepository(store),
      logs,
      urls,
      clock,
      random: cryptoRandom,
      browserNotice: () => notice,
      events: new EventBus(),
    });
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('offline: the link is local only and carries no notice', async () => {
    urls.publicBase = null;
    const v = await shares.create(account, logId, { expiresInHours: 1, redact: true, redactPath: false });
    assert.equal(v.localOnly, true);
    assert.equal(v.browserNotice, null);
    assert.match(v.url, /^http:\/\/127\.0\.0\.1:4681\/share\//);
  });

  test('online through a service with a warning page: the link is public and says what a browser visitor must do', async () => {
    urls.publicBase = 'https://quiet-fox.loca.lt';
    const v = await shares.create(account, logId, { expiresInHours: 1, redact: true, redactPath: false });
    assert.equal(v.localOnly, false);
    assert.equal(v.browserNotice, 'browsers meet a warning page');
    assert.match(v.url, /^https:\/\/quiet-fox\.loca\.lt\/share\//);
    notice = null;
    assert.equal(
      (await shares.create(account, logId, { expiresInHours: 1, redact: true, redactPath: false })).browserNotice,
      null,
    );
  });
});
