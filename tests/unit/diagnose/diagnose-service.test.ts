import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from '../../helpers/node-test.ts';
import { DiagnoseService } from '../../../server/diagnose/diagnose-service.ts';
import { NotFoundError } from '../../../server/errors/app-errors.ts';
import { diagnosisView } from '../../../server/diagnose/diagnose-views.ts';
import type { StoredLogWithBody } from '../../../server/logs/logs-service.ts';
import type { ReplayReader, ReplayRecord } from '../../../server/replay/replay-types.ts';
import { BaseUrls } from '../../../server/support/base-urls.ts';
import { ManualClock } from '../../../server/support/clock.ts';

const ACCOUNT = { id: 'acc_1', name: 'local' };

const DETAIL: StoredLogWithBody = {
  id: 'log_1',
  accountId: ACCOUNT.id,
  endpointId: 'ep_gone',
  method: 'POST',
  path: '/',
  query: {},
  contentType: 'application/json',
  size: 2,
  declaredSize: 2,
  storedSize: 2,
  truncated: false,
  sourceIp: '127.0.0.1',
  receivedAt: Date.parse('2030-01-01T00:00:00.000Z'),
  durationMs: 1,
  status: 'success',
  verification: { scheme: 'none', result: 'skipped', reason: null, detail: null, matchedSecret: null },
  pinned: false,
  eventType: null,
  rawHeaders: [['Content-Type', 'application/json']],
  body: Buffer.from('{}'),
  answer: null,
};

/**
 * FAKE: the replay feature is built on another branch; this stands in for its
 * ReplayReader (the contract in server/replay/replay-types.ts) until the merge.
 */
class FakeReplayReader implements ReplayReader {
  constructor(private readonly records: ReplayRecord[]) {}
  async history(accountId: string, logId: string, limit = 50): Promise<ReplayRecord[]> {
    return this.records.filter((r) => r.accountId === accountId && r.logId === logId).slice(0, limit);
  }
  async stats(): Promise<never> {
    throw new Error('not used by diagnose');
  }
}

describe('DiagnoseService', () => {
  let silent: Server;
  let silentUrl: string;
  let ok: Server;
  let okUrl: string;
  before(async () => {
    // Accepts connections and never answers: the HTTP step must give up on its own.
    silent = createServer(() => undefined);
    ok = createServer((_req, res) => res.end('ok'));
    for (const s of [silent, ok]) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow`;
    okUrl = `http://127.0.0.1:${(ok.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    for (const s of [silent, ok]) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  const service = (replays: ReplayReader, httpMs = 3000) => {
    const urls = new BaseUrls();
    urls.receiver = 'http://127.0.0.1:4681';
    return new DiagnoseService({
      logs: {
        find: async (_a, id) => (id === DETAIL.id ? DETAIL : Promise.reject(new NotFoundError('no', 'LOG_NOT_FOUND'))),
      },
      endpoints: {
        forReceiver: () => undefined,
        own: () => {
          throw new NotFoundError('gone', 'ENDPOINT_NOT_FOUND');
        },
      },
      replays,
      urls,
      clock: new ManualClock(Date.parse('2030-01-02T00:00:00Z')),
      timeouts: { httpMs },
    });
  };

  const replay = (targetUrl: string, createdAt: number): ReplayRecord => ({
    id: `rp_${createdAt}`,
    accountId: ACCOUNT.id,
    logId: DETAIL.id,
    endpointId: DETAIL.endpointId,
    targetUrl,
    method: 'POST',
    status: 500,
    responseTime: 12,
    error: null,
    trigger: 'manual',
    createdAt,
    edited: false,
  });

  test('falls back to the last replay target and lists recent replays; verification.now is null once the endpoint is gone', async () => {
    const d = await service(
      new FakeReplayReader([replay(okUrl, 2000), replay('http://127.0.0.1:1/old', 1000)]),
    ).diagnose(ACCOUNT, DETAIL.id);
    assert.equal(d.destination?.source, 'lastReplay');
    assert.equal(d.destination?.url, okUrl);
    assert.equal(d.destination?.http.status, 200);
    assert.equal(d.recentReplays.length, 2);
    assert.equal(diagnosisView(d).recentReplays[0]!.createdAt, new Date(2000).toISOString());
    assert.equal(d.verification.now, null);
    assert.equal(d.reconstruction.url, 'http://127.0.0.1:4681/webhook/ep_gone');
  });

  test('the HTTP step gives up after its configured time limit with a clear error', async () => {
    const d = await service(new FakeReplayReader([]), 200).diagnose(ACCOUNT, DETAIL.id, silentUrl);
    assert.equal(d.destination?.connect.ok, true);
    assert.equal(d.destination?.http.ok, false);
    assert.match(d.destination?.http.error ?? '', /No HTTP response within 200 ms/);
  });
});
