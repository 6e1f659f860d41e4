import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { withSnapshot } from '../helpers/snapshot-query.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const idsOf = async (t: TestEngine, endpointId: string, token?: string): Promise<string[]> =>
  (await t.api('GET', `/api/webhooks/logs?endpointId=${endpointId}&limit=200`, { token })).body.data.logs.map(
    (l: { id: string }) => l.id,
  );

const deliver = async (t: TestEngine, endpointId: string, body: string | Buffer): Promise<string> => {
  const r = await t.deliver(`/webhook/${endpointId}`, { body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data.id as string;
};

describe('retention budgets are per account', () => {
  test("the body-byte budget: one account's large delivery never evicts another's log", async () => {
    const t = await startTestEngine({ retention: { maxLogsPerAccount: 10_000, maxBodyBytesPerAccount: 200_000 } });
    try {
      const bobToken = await t.engine.issueToken('bob');
      const bobEp = await t.endpoint({ name: 'bob', validationType: 'none' }, bobToken);
      const aliceEp = await t.endpoint({ name: 'alice', validationType: 'none' });
      // Bob's only log is the oldest of the whole store.
      const bobLog = await deliver(t, bobEp, 'bob only');
      const a1 = await deliver(t, aliceEp, Buffer.alloc(150_000, 'a'));
      const a2 = await deliver(t, aliceEp, Buffer.alloc(150_000, 'b'));
      // Alice is at 300,000 > 200,000: her oldest goes (down to at most 180,000); Bob keeps his.
      assert.deepEqual(await idsOf(t, aliceEp), [a2]);
      assert.deepEqual(await idsOf(t, bobEp, bobToken), [bobLog]);
      assert.equal((await t.api('GET', `/api/webhooks/logs/${a1}`)).status, 404);
    } finally {
      await t.stop();
    }
  });

  test('the log-count budget: each account keeps its own newest logs', async () => {
    const t = await startTestEngine({ retention: { maxLogsPerAccount: 2, maxBodyBytesPerAccount: 1 << 30 } });
    try {
      const bobToken = await t.engine.issueToken('bob');
      const bobEp = await t.endpoint({ name: 'bob', validationType: 'none' }, bobToken);
      const aliceEp = await t.endpoint({ name: 'alice', validationType: 'none' });
      const bobLog = await deliver(t, bobEp, 'bob');
      const alice = [];
      for (let i = 0; i < 4; i++) alice.push(await deliver(t, aliceEp, `alice ${i}`));
      assert.deepEqual(await idsOf(t, aliceEp), [alice[3], alice[2]]);
      assert.deepEqual(await idsOf(t, bobEp, bobToken), [bobLog]);
    } finally {
      await t.stop();
    }
  });

  test('byte eviction goes oldest first down to 90% of the budget', async () => {
    const t = await startTestEngine({ retention: { maxLogsPerAccount: 10_000, maxBodyBytesPerAccount: 10_000 } });
    try {
      const ep = await t.endpoint({ name: 'r', validationType: 'none' });
      const ids: string[] = [];
      for (let i = 0; i < 11; i++) ids.push(await deliver(t, ep, Buffer.alloc(1000, 65 + i)));
      // The 11th makes 11,000 > 10,000: the two oldest go, leaving 9,000 (90%), not just one.
      assert.deepEqual(await idsOf(t, ep), ids.slice(2).reverse());
      // The 12th makes 10,000: at the budget is not over it.
      ids.push(await deliver(t, ep, Buffer.alloc(1000, 90)));
      assert.deepEqual(await idsOf(t, ep), ids.slice(2).reverse());
    } finally {
      await t.stop();
    }
  });
});

describe('pinned logs are never evicted; the budgets weigh unpinned logs only', () => {
  const pin = async (t: TestEngine, logId: string): Promise<void> => {
    const r = await t.api('PATCH', `/api/webhooks/logs/${logId}`, { body: { pinned: true } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const listed = async (t: TestEngine, qs: string, token?: string): Promise<string[]> =>
    (await t.api('GET', `/api/webhooks/logs?limit=200${qs}`, { token })).body.data.logs.map(
      (l: { id: string }) => l.id,
    );

  test('the log-count budget: the oldest unpinned go, pinned ones stay, and another account is untouched', async () => {
    const t = await startTestEngine({ retention: { maxLogsPerAccount: 2, maxBodyBytesPerAccount: 1 << 30 } });
    try {
      const bobToken = await t.engine.issueToken('bob');
      const bobEp = await t.endpoint({ name: 'bob', validationType: 'none' }, bobToken);
      const ep = await t.endpoint({ name: 'alice', validationType: 'none' });
      // Bob's only log is the oldest of the store, and unpinned: eviction without its account filter would take it.
      const bobLog = await deliver(t, bobEp, 'bob');
      const [a1, a2] = [await deliver(t, ep, 'a1'), await deliver(t, ep, 'a2')];
      await pin(t, a1);
      await pin(t, a2);
      const a3 = await deliver(t, ep, 'a3');
      await pin(t, a3);
      // Three pinned, over the budget of 2 on their own: nothing is evicted for them, and a new delivery stays.
      const a4 = await deliver(t, ep, 'a4');
      assert.deepEqual(await idsOf(t, ep), [a4, a3, a2, a1]);
      const [a5, a6] = [await deliver(t, ep, 'a5'), await deliver(t, ep, 'a6')];
      // Three unpinned > 2: the oldest unpinned (a4) goes, though the pinned ones are older.
      assert.deepEqual(await idsOf(t, ep), [a6, a5, a3, a2, a1]);
      assert.equal((await t.api('GET', `/api/webhooks/logs/${a4}`)).status, 404);
      assert.deepEqual(await listed(t, '&pinned=true'), [a3, a2, a1]);
      assert.deepEqual(await listed(t, '&pinned=false'), [a6, a5]);

      // Unpinned, a1 counts again: the next delivery makes four unpinned, and the two oldest go.
      assert.equal((await t.api('PATCH', `/api/webhooks/logs/${a1}`, { body: { pinned: false } })).status, 200);
      const a7 = await deliver(t, ep, 'a7');
      assert.deepEqual(await idsOf(t, ep), [a7, a6, a3, a2]);
      assert.deepEqual(await idsOf(t, bobEp, bobToken), [bobLog]);
    } finally {
      await t.stop();
    }
  });

  test('the body-byte budget: pinned bodies are outside it, and another account is untouched', async () => {
    const t = await startTestEngine({ retention: { maxLogsPerAccount: 10_000, maxBodyBytesPerAccount: 10_000 } });
    try {
      const bobToken = await t.engine.issueToken('bob');
      const bobEp = await t.endpoint({ name: 'bob', validationType: 'none' }, bobToken);
      const ep = await t.endpoint({ name: 'alice', validationType: 'none' });
      const bobLog = await deliver(t, bobEp, Buffer.alloc(2000, 'b'));
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await deliver(t, ep, Buffer.alloc(2000, 65 + i)));
      // 10,000 bytes: at the budget, not over it.
      await pin(t, ids[0]!);
      await pin(t, ids[1]!);
      ids.push(await deliver(t, ep, Buffer.alloc(2000, 70)));
      // Unpinned 8,000: under the budget although the account holds 12,000.
      assert.deepEqual(await idsOf(t, ep), [...ids].reverse());
      ids.push(await deliver(t, ep, Buffer.alloc(2000, 71)));
      ids.push(await deliver(t, ep, Buffer.alloc(2000, 72)));
      // Unpinned 12,000 > 10,000: the oldest unpinned go until 9,000 or less is left (two of them), the pinned stay.
      assert.deepEqual(await idsOf(t, ep), [ids[7], ids[6], ids[5], ids[4], ids[1], ids[0]]);
      assert.deepEqual(await idsOf(t, bobEp, bobToken), [bobLog]);
    } finally {
      await t.stop();
    }
  });
});

describe('an evicted log takes its share link, analysis, replay history and queued forward with it', () => {
  let t: TestEngine;
  let target: TargetServer;
  before(async () => {
    // The target always fails, so the forward stays queued (its retry is a minute away).
    target = await TargetServer.start(() => ({ status: 500, body: 'down' }));
    t = await startTestEngine({
      retention: { maxLogsPerAccount: 3, maxBodyBytesPerAccount: 1 << 30 },
      forward: { ...DEFAULT_CONFIG.forward, initialBackoffMs: 60_000, maxBackoffMs: 60_000 },
    });
  });
  after(async () => {
    await t.stop();
    await target.close();
  });

  /** Rows of the features' own tables that name this log, read from a checkpointed snapshot. */
  async function rowsFor(logIds: string[]): Promise<Record<string, Record<string, number>>> {
    await t.engine.checkpoint();
    return withSnapshot(join(t.dataDir, 'store', 'hookscope.db'), (db) => {
      const out: Record<string, Record<string, number>> = {};
      for (const id of logIds) {
        const count = (table: string): number =>
          Number(db.exec(`SELECT COUNT(*) FROM ${table} WHERE log_id = ?`, [id])[0]!.values[0]![0]);
        out[id] = {
          shares: count('shares'),
          replays: count('replays'),
          analyses: count('remediation_analyses'),
          forwards: count('forward_queue'),
        };
      }
      return out;
    });
  }

  async function decorate(logId: string): Promise<string> {
    assert.equal(
      (await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/hook` } })).status,
      200,
    );
    assert.equal((await t.api('POST', `/api/webhooks/logs/${logId}/analyze`)).status, 200);
    const share = (await t.api('POST', `/api/webhooks/${logId}/share`)).body.data;
    return `${t.engine.receiverUrl}${new URL(share.url).pathname}`;
  }

  test('in the same write that evicts it, while the other logs keep theirs', async () => {
    const bobToken = await t.engine.issueToken('bob');
    const bobEp = await t.endpoint({ name: 'bob', validationType: 'none' }, bobToken);
    const bobLog = await deliver(t, bobEp, 'bob');
    assert.equal((await t.api('POST', `/api/webhooks/${bobLog}/share`, { token: bobToken })).status, 201);

    const forwarded = await t.endpoint({ name: 'forwarded', validationType: 'none', forwardUrl: `${target.url}/fwd` });
    const plain = await t.endpoint({ name: 'plain', validationType: 'none' });
    const oldest = await deliver(t, forwarded, 'first');
    const second = await deliver(t, plain, 'second');
    const oldestLink = await decorate(oldest);
    const secondLink = await decorate(second);
    await target.waitForCount(3); // two replays and the first forward attempt
    assert.deepEqual(await rowsFor([oldest, second]), {
      [oldest]: { shares: 1, replays: 2, analyses: 1, forwards: 1 },
      [second]: { shares: 1, replays: 1, analyses: 1, forwards: 0 },
    });

    await deliver(t, plain, 'third');
    await deliver(t, plain, 'fourth'); // alice's 4th log: the oldest is evicted

    assert.equal((await t.api('GET', `/api/webhooks/logs/${oldest}`)).status, 404);
    assert.deepEqual(await rowsFor([oldest, second, bobLog]), {
      [oldest]: { shares: 0, replays: 0, analyses: 0, forwards: 0 },
      [second]: { shares: 1, replays: 1, analyses: 1, forwards: 0 },
      [bobLog]: { shares: 1, replays: 0, analyses: 0, forwards: 0 },
    });
    assert.equal((await rawRequest(oldestLink, { method: 'GET' })).status, 404);
    assert.equal((await rawRequest(secondLink, { method: 'GET' })).status, 200);
    const queue = (await t.api('GET', `/api/endpoints/${forwarded}/forward`)).body.data;
    assert.equal(queue.pending, 0);
  });
});
