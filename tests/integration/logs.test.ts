import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

describe('logs API', () => {
  let t: TestEngine;
  let a: string;
  let b: string;
  const ids: string[] = [];
  before(async () => {
    t = await startTestEngine();
    a = await t.endpoint({ name: 'a', validationType: 'none' });
    b = await t.endpoint({ name: 'b', validationType: 'hmac_sha256', webhookSecret: 'k-secret-1' });
    for (let i = 0; i < 7; i++) {
      const r = await t.deliver(`/webhook/${a}/items/${i}`, {
        body: JSON.stringify({ n: i, note: i === 3 ? 'needle_100%' : 'hay' }),
        headers: { 'content-type': 'application/json', 'x-trace': i === 5 ? 'header-needle' : 'none' },
      });
      ids.push(r.body.data.id);
    }
    await t.deliver(`/webhook/${b}/unsigned`, { body: 'no signature here' }); // failed
    await t.deliver(`/webhook/${b}/unsigned`, { body: 'nor here' }); // failed
  });
  after(() => t.stop());

  const list = async (qs: string) => t.api('GET', `/api/webhooks/logs${qs}`);

  test('lists newest first with total, limit, offset and hasMore', async () => {
    const r = await list('?limit=3');
    assert.equal(r.status, 200);
    const d = r.body.data;
    assert.equal(d.total, 9);
    assert.equal(d.limit, 3);
    assert.equal(d.offset, 0);
    assert.equal(d.hasMore, true);
    assert.equal(d.logs.length, 3);
    assert.equal(d.logs[2].id, ids[6], 'newest first: the two failed ones, then the last accepted');
    const page = (await list('?limit=3&offset=6')).body.data;
    assert.equal(page.hasMore, false);
    assert.deepEqual(
      page.logs.map((l: { id: string }) => l.id),
      [ids[2], ids[1], ids[0]],
    );
    assert.equal((await list('')).body.data.limit, 50, 'default page size');
  });

  test('list entries carry the summary without body or headers', async () => {
    const entry = (await list('?limit=1&status=success')).body.data.logs[0];
    for (const k of [
      'id',
      'endpointId',
      'method',
      'path',
      'query',
      'contentType',
      'size',
      'sourceIp',
      'receivedAt',
      'status',
      'verification',
    ]) {
      assert.ok(k in entry, k);
    }
    assert.equal('body' in entry, false);
    assert.equal('headers' in entry, false);
    assert.match(entry.receivedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('filters by status and endpointId', async () => {
    const failed = (await list('?status=failed')).body.data;
    assert.equal(failed.total, 2);
    assert.ok(failed.logs.every((l: { status: string }) => l.status === 'failed'));
    assert.equal((await list('?status=success')).body.data.total, 7);
    assert.equal((await list(`?endpointId=${b}`)).body.data.total, 2);
    assert.equal((await list(`?endpointId=${a}&status=failed`)).body.data.total, 0);
  });

  test('search matches body, headers and path, with % and _ taken literally', async () => {
    const inBody = (await list('?search=needle_100%25')).body.data;
    assert.deepEqual(
      inBody.logs.map((l: { id: string }) => l.id),
      [ids[3]],
    );
    const inHeader = (await list('?search=header-needle')).body.data;
    assert.deepEqual(
      inHeader.logs.map((l: { id: string }) => l.id),
      [ids[5]],
    );
    const inPath = (await list('?search=%2Fitems%2F4')).body.data;
    assert.deepEqual(
      inPath.logs.map((l: { id: string }) => l.id),
      [ids[4]],
    );
    assert.equal((await list('?search=NEEDLE_100')).body.data.total, 1, 'case-insensitive');
    assert.equal((await list('?search=needle%25_')).body.data.total, 0, 'wildcards are literal');
    assert.equal((await list('?search=nor%20here&status=failed')).body.data.total, 1);
  });

  test('every bad parameter is 400 naming it', async () => {
    for (const [qs, field] of <[string, string][]>[
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=abc', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?limit=1&limit=2', 'limit'],
      ['?offset=-1', 'offset'],
      ['?offset=x', 'offset'],
      ['?status=bogus', 'status'],
      [`?search=${'s'.repeat(501)}`, 'search'],
      ['?endpointId=a&endpointId=b', 'endpointId'],
    ]) {
      const r = await list(qs);
      assert.equal(r.status, 400, qs);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.ok(r.body.error.message.includes(field), `${qs}: ${r.body.error.message}`);
    }
    assert.equal((await list('?limit=200')).status, 200);
  });

  test('after=<logId> lists what arrived after that log, oldest first, with the filters, total and hasMore', async () => {
    const ids_ = (r: { body: { data: { logs: { id: string }[] } } }) => r.body.data.logs.map((l) => l.id);
    const first = await list(`?after=${ids[1]}&endpointId=${a}&limit=2`);
    assert.equal(first.status, 200);
    assert.deepEqual(ids_(first), [ids[2], ids[3]]);
    assert.deepEqual(
      { total: first.body.data.total, limit: first.body.data.limit, offset: first.body.data.offset },
      { total: 5, limit: 2, offset: 0 },
    );
    assert.equal(first.body.data.hasMore, true);
    const last = await list(`?after=${ids[4]}&endpointId=${a}&limit=2`);
    assert.deepEqual(ids_(last), [ids[5], ids[6]]);
    assert.equal(last.body.data.total, 2);
    assert.equal(last.body.data.hasMore, false);
    // Without endpointId the two failed deliveries of b follow; status filters them.
    assert.deepEqual((await list(`?after=${ids[6]}`)).body.data.total, 2);
    assert.deepEqual(ids_(await list(`?after=${ids[5]}&status=success`)), [ids[6]]);
    assert.deepEqual(ids_(await list(`?after=${ids[5]}&status=failed`)).length, 2);

    const gone = await list('?after=log_never_stored');
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'CURSOR_NOT_FOUND');
    assert.equal(
      gone.body.error.message,
      'Log log_never_stored (after) was not found: it was deleted or evicted by retention, or is not one of ' +
        "this account's logs. List without after (newest first) to find a log to start from.",
    );
    const stranger = await t.engine.issueToken('someone-else');
    const theirs = await t.api('GET', `/api/webhooks/logs?after=${ids[1]}`, { token: stranger });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.code, 'CURSOR_NOT_FOUND');

    for (const [qs, field] of <[string, string][]>[
      [`?after=${ids[1]}&offset=0`, 'offset'],
      [`?after=${ids[1]}&search=hay`, 'search'],
      ['?after=log%20x', 'after'],
      ['?after=a&after=b', 'after'],
    ]) {
      const r = await list(qs);
      assert.equal(r.status, 400, qs);
      assert.equal(r.body.error.code, 'VALIDATION_ERROR');
      assert.ok(r.body.error.message.includes(field), `${qs}: ${r.body.error.message}`);
    }
  });

  test('GET one log adds headers, rawHeaders, body and bodyEncoding', async () => {
    const r = await t.api('GET', `/api/webhooks/logs/${ids[3]}`);
    assert.equal(r.status, 200);
    const l = r.body.data;
    assert.equal(l.id, ids[3]);
    assert.equal(l.endpointId, a);
    assert.equal(l.method, 'POST');
    assert.equal(l.path, '/items/3');
    assert.equal(l.body, JSON.stringify({ n: 3, note: 'needle_100%' }));
    assert.equal(l.bodyEncoding, 'utf8');
    assert.equal(l.headers['x-trace'], 'none');
    assert.ok(Array.isArray(l.rawHeaders) && l.rawHeaders.every((p: unknown[]) => p.length === 2));
    const missing = await t.api('GET', '/api/webhooks/logs/log_missing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'LOG_NOT_FOUND');
  });

  test('GET /api/webhooks answers the alternative shape', async () => {
    const r = await t.api('GET', `/api/webhooks?endpointId=${a}&limit=2&offset=1`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body.data).sort(), ['hasMore', 'total', 'webhooks']);
    assert.equal(r.body.data.total, 7);
    assert.equal(r.body.data.hasMore, true);
    assert.deepEqual(
      r.body.data.webhooks.map((w: { id: string }) => w.id),
      [ids[5], ids[4]],
    );
    assert.equal((await t.api('GET', '/api/webhooks?limit=-3')).status, 400);
  });
});

describe('retention', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ retention: { maxLogsPerAccount: 5, maxBodyBytesPerAccount: 512 * 1024 * 1024 } });
  });
  after(() => t.stop());

  test('keeps the newest logs per account and evicts the oldest first', async () => {
    const ep = await t.endpoint({ name: 'r', validationType: 'none' });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await t.deliver(`/webhook/${ep}`, { body: `#${i}` })).body.data.id);
    const d = (await t.api('GET', '/api/webhooks/logs')).body.data;
    assert.equal(d.total, 5);
    assert.deepEqual(
      d.logs.map((l: { id: string }) => l.id),
      ids.slice(3).reverse(),
    );
    assert.equal((await t.api('GET', `/api/webhooks/logs/${ids[0]}`)).status, 404);
  });
});
