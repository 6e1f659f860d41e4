import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { withSnapshot } from '../helpers/snapshot-query.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

describe('deleting, clearing and pinning logs', () => {
  let t: TestEngine;
  let bobToken: string;
  let bobEp: string;
  let target: TargetServer;

  before(async () => {
    t = await startTestEngine();
    target = await TargetServer.start();
    bobToken = await t.engine.issueToken('bob');
    bobEp = await t.endpoint({ name: 'bob', validationType: 'none' }, bobToken);
  });
  after(async () => {
    await t.stop();
    await target.close();
  });

  const deliver = async (endpointId: string, body = 'x'): Promise<string> => {
    const r = await t.deliver(`/webhook/${endpointId}`, { body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.id as string;
  };
  const signedEndpoint = (name: string) =>
    t.endpoint({ name, validationType: 'hmac_sha256', webhookSecret: 'a-long-secret' });
  /** A delivery that fails verification (so it can be analysed). */
  const deliverUnsigned = async (endpointId: string): Promise<string> => {
    const r = await t.deliver(`/webhook/${endpointId}`, {
      body: '{}',
      headers: { 'x-webhook-signature': 'sha256=00' },
    });
    assert.equal(r.status, 400);
    return r.body.error.details.logId as string;
  };
  const idsOf = async (endpointId: string, token?: string): Promise<string[]> =>
    (await t.api('GET', `/api/webhooks/logs?endpointId=${endpointId}`, { token })).body.data.logs.map(
      (l: { id: string }) => l.id,
    );
  const pin = (logId: string, pinned: unknown, token?: string) =>
    t.api('PATCH', `/api/webhooks/logs/${logId}`, { body: { pinned }, token });
  const validation = (r: { status: number; body: any }): string => {
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'VALIDATION_ERROR');
    return r.body.error.message as string;
  };

  /** Rows of other features' tables that name each log, read from a checkpointed snapshot. */
  async function rowsFor(logIds: string[]): Promise<Record<string, Record<string, number>>> {
    await t.engine.checkpoint();
    return withSnapshot(join(t.dataDir, 'store', 'hookscope.db'), (db) => {
      const count = (table: string, id: string): number =>
        Number(db.exec(`SELECT COUNT(*) FROM ${table} WHERE log_id = ?`, [id])[0]!.values[0]![0]);
      return Object.fromEntries(
        logIds.map((id) => [
          id,
          {
            shares: count('shares', id),
            replays: count('replays', id),
            analyses: count('remediation_analyses', id),
          },
        ]),
      );
    });
  }

  /** A replay, an analysis and a share link for the log; returns the link on the receiver. */
  async function decorate(logId: string): Promise<string> {
    const replayed = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: target.url } });
    assert.equal(replayed.status, 200);
    assert.equal((await t.api('POST', `/api/webhooks/logs/${logId}/analyze`)).status, 200);
    const share = await t.api('POST', `/api/webhooks/${logId}/share`, { body: {} });
    assert.equal(share.status, 201);
    return `${t.engine.receiverUrl}${new URL(share.body.data.url as string).pathname}`;
  }

  test('PATCH pins and unpins; the same value again changes nothing; the summary and detail say pinned', async () => {
    const ep = await t.endpoint({ name: 'pins', validationType: 'none' });
    const logId = await deliver(ep);
    assert.equal((await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data.pinned, false);

    const pinned = await pin(logId, true);
    assert.equal(pinned.status, 200);
    const listed = (await t.api('GET', `/api/webhooks/logs?endpointId=${ep}`)).body.data.logs[0];
    assert.deepEqual(pinned.body.data, listed, 'the answer is the log as the list shows it');
    assert.equal(listed.pinned, true);
    assert.deepEqual((await pin(logId, true)).body.data, listed);
    assert.equal((await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data.pinned, true);
    assert.equal((await pin(logId, 'false')).body.data.pinned, false);
    assert.equal((await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data.pinned, false);

    assert.equal(
      validation(await t.api('PATCH', `/api/webhooks/logs/${logId}`, { body: {} })),
      'Invalid request body "pinned": pinned is required.',
    );
    assert.equal(validation(await pin(logId, 'yes')), 'Invalid request body "pinned": pinned must be true or false.');
    const bobLog = await deliver(bobEp);
    const foreign = await pin(bobLog, true);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'LOG_NOT_FOUND');
    assert.equal((await t.api('GET', `/api/webhooks/logs/${bobLog}`, { token: bobToken })).body.data.pinned, false);
  });

  test('the pinned filter lists only pinned (true) or only unpinned (false) logs; another value is a 400', async () => {
    const ep = await t.endpoint({ name: 'filter', validationType: 'none' });
    const [l1, l2, l3] = [await deliver(ep), await deliver(ep), await deliver(ep)];
    await pin(l1, true);
    await pin(l3, true);
    const page = async (qs: string) => (await t.api('GET', `/api/webhooks/logs?endpointId=${ep}${qs}`)).body.data;
    assert.deepEqual(
      (await page('&pinned=true')).logs.map((l: { id: string }) => l.id),
      [l3, l1],
    );
    assert.equal((await page('&pinned=true')).total, 2);
    assert.deepEqual(
      (await page('&pinned=false')).logs.map((l: { id: string }) => l.id),
      [l2],
    );
    assert.equal((await page('')).total, 3);
    const bad = await t.api('GET', '/api/webhooks/logs?pinned=maybe');
    assert.equal(validation(bad), 'Invalid query parameter "pinned": pinned must be true or false.');
  });

  test("DELETE one log: 200, then 404; another account's log is 404 and stays", async () => {
    const ep = await t.endpoint({ name: 'one', validationType: 'none' });
    const [keep, gone] = [await deliver(ep), await deliver(ep)];
    const r = await t.api('DELETE', `/api/webhooks/logs/${gone}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { id: gone, deleted: true });
    assert.equal((await t.api('GET', `/api/webhooks/logs/${gone}`)).status, 404);
    assert.deepEqual(await idsOf(ep), [keep]);
    const again = await t.api('DELETE', `/api/webhooks/logs/${gone}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error.code, 'LOG_NOT_FOUND');

    const bobLog = await deliver(bobEp);
    assert.equal((await t.api('DELETE', `/api/webhooks/logs/${bobLog}`)).status, 404);
    assert.equal((await t.api('GET', `/api/webhooks/logs/${bobLog}`, { token: bobToken })).status, 200);
  });

  test('a deleted log takes its share link, analysis and replay history; pinned logs can be deleted', async () => {
    const ep = await signedEndpoint('decorated');
    const [gone, kept] = [await deliverUnsigned(ep), await deliverUnsigned(ep)];
    const goneLink = await decorate(gone);
    const keptLink = await decorate(kept);
    await pin(gone, true);
    const decorated = { shares: 1, replays: 1, analyses: 1 };
    assert.deepEqual(await rowsFor([gone, kept]), { [gone]: decorated, [kept]: decorated });

    assert.equal((await t.api('DELETE', `/api/webhooks/logs/${gone}`)).status, 200);
    assert.deepEqual(await rowsFor([gone, kept]), {
      [gone]: { shares: 0, replays: 0, analyses: 0 },
      [kept]: decorated,
    });
    assert.equal((await rawRequest(goneLink, { method: 'GET' })).status, 404);
    assert.equal((await rawRequest(keptLink, { method: 'GET' })).status, 200);
    assert.equal((await t.api('GET', `/api/replay/${gone}/history`)).status, 404);
    assert.equal((await t.api('GET', `/api/replay/${kept}/history`)).body.data.total, 1);
  });

  test("POST /api/webhooks/logs/delete: deletes the named logs, lists the rest as notFound, never another account's", async () => {
    const ep1 = await t.endpoint({ name: 'many-1', validationType: 'none' });
    const ep2 = await t.endpoint({ name: 'many-2', validationType: 'none' });
    const [a, b, c] = [await deliver(ep1), await deliver(ep2), await deliver(ep1)];
    const bobLog = await deliver(bobEp);
    const r = await t.api('POST', '/api/webhooks/logs/delete', {
      body: { ids: [b, 'log_unknown', a, b, bobLog] },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { deleted: 2, deletedIds: [b, a], notFound: ['log_unknown', bobLog] });
    assert.deepEqual(await idsOf(ep1), [c]);
    assert.deepEqual(await idsOf(ep2), []);
    assert.ok((await idsOf(bobEp, bobToken)).includes(bobLog), "another account's log stays");
    // Nothing of this account among them: 200 all the same, nothing deleted.
    const none = await t.api('POST', '/api/webhooks/logs/delete', { body: { ids: [a, bobLog] } });
    assert.deepEqual(none.body.data, { deleted: 0, deletedIds: [], notFound: [a, bobLog] });
  });

  test('POST /api/webhooks/logs/delete: 1 to 1000 ids, each a non-empty string, or a 400 naming the field', async () => {
    const post = (body: unknown) => t.api('POST', '/api/webhooks/logs/delete', { body });
    assert.equal(validation(await post({})), 'Invalid request body "ids": ids is required.');
    assert.equal(
      validation(await post({ ids: 'log_1' })),
      'Invalid request body "ids": ids must be an array of log ids.',
    );
    assert.equal(validation(await post({ ids: [] })), 'Invalid request body "ids": ids must hold at least one log id.');
    assert.equal(
      validation(await post({ ids: ['log_1', ''] })),
      'Invalid request body "ids.1": ids must not hold an empty id.',
    );
    assert.equal(
      validation(await post({ ids: ['log_1', 7] })),
      'Invalid request body "ids.1": ids must hold log ids (strings).',
    );
    const many = Array.from({ length: 1001 }, (_, i) => `log_${i}`);
    assert.equal(
      validation(await post({ ids: many })),
      'Invalid request body "ids": ids must hold at most 1000 log ids.',
    );
    const atMost = await post({ ids: many.slice(0, 1000) });
    assert.equal(atMost.status, 200);
    assert.equal(atMost.body.data.notFound.length, 1000);
  });

  test("DELETE /api/endpoints/:endpointId/logs clears the endpoint's unpinned logs; others and pinned ones stay", async () => {
    const ep = await signedEndpoint('clear');
    const other = await t.endpoint({ name: 'clear-other', validationType: 'none' });
    const [l1, l2, l3] = [await deliverUnsigned(ep), await deliverUnsigned(ep), await deliverUnsigned(ep)];
    const otherLog = await deliver(other);
    const link = await decorate(l1);
    await pin(l2, true);

    const r = await t.api('DELETE', `/api/endpoints/${ep}/logs`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { endpointId: ep, deleted: 2, pinnedKept: 1 });
    assert.deepEqual(await idsOf(ep), [l2]);
    assert.deepEqual(await idsOf(other), [otherLog]);
    assert.equal((await t.api('GET', `/api/endpoints/${ep}`)).status, 200, 'the endpoint stays');
    assert.equal((await t.api('GET', `/api/webhooks/logs/${l3}`)).status, 404);
    assert.deepEqual(await rowsFor([l1]), { [l1]: { shares: 0, replays: 0, analyses: 0 } });
    assert.equal((await rawRequest(link, { method: 'GET' })).status, 404);

    assert.deepEqual((await t.api('DELETE', `/api/endpoints/${ep}/logs`)).body.data, {
      endpointId: ep,
      deleted: 0,
      pinnedKept: 1,
    });
  });

  test('a deleted body is in no file of the data directory after the next checkpoint; a kept one is', async () => {
    const marker = (name: string) => `{"marker":"${name}-${'z'.repeat(40)}"}`;
    const ep = await t.endpoint({ name: 'wipe', validationType: 'none' });
    const gone = await deliver(ep, marker('deleted-one'));
    const many = await deliver(ep, marker('deleted-many'));
    await deliver(ep, marker('kept'));
    const doomedEp = await t.endpoint({ name: 'wipe-endpoint', validationType: 'none' });
    await deliver(doomedEp, marker('deleted-with-endpoint'));
    assert.equal((await t.api('DELETE', `/api/webhooks/logs/${gone}`)).status, 200);
    assert.equal((await t.api('POST', '/api/webhooks/logs/delete', { body: { ids: [many] } })).status, 200);
    assert.equal((await t.api('DELETE', `/api/endpoints/${doomedEp}`)).status, 200);
    await t.engine.checkpoint();
    const storeDir = join(t.dataDir, 'store');
    const found = new Set<string>();
    for (const name of await readdir(storeDir)) {
      const bytes = await readFile(join(storeDir, name));
      for (const m of ['deleted-one', 'deleted-many', 'deleted-with-endpoint', 'kept'])
        if (bytes.includes(marker(m))) found.add(m);
    }
    assert.deepEqual([...found], ['kept']);
  });

  test("clearing another account's endpoint, or an unknown one, is a 404 and deletes nothing", async () => {
    const bobLog = await deliver(bobEp);
    const foreign = await t.api('DELETE', `/api/endpoints/${bobEp}/logs`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'ENDPOINT_NOT_FOUND');
    assert.ok((await idsOf(bobEp, bobToken)).includes(bobLog));
    assert.equal((await t.api('DELETE', '/api/endpoints/ep_unknown/logs')).status, 404);
  });
});
