import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('compare two deliveries', () => {
  let t: TestEngine;
  let ep: string;
  let otherToken: string;
  before(async () => {
    t = await startTestEngine();
    ep = await t.endpoint({ name: 'compare', validationType: 'none' });
    otherToken = await t.engine.issueToken('someone-else');
  });
  after(() => t.stop());

  /** Delivers over node:http (exact header names and order) and answers the stored log's id. */
  async function deliver(
    subPath: string,
    opts: { method?: string; headers?: [string, string | string[]][]; body: string | Buffer },
  ): Promise<string> {
    const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}${subPath}`, opts);
    assert.equal(r.status, 200);
    return r.json().data.id as string;
  }

  const compare = (a: string, b: string, token?: string) =>
    t.api('GET', `/api/webhooks/compare?a=${a}&b=${b}`, token ? { token } : {});

  test('JSON bodies: request line, query, headers and a structural body diff, b compared with a', async () => {
    const bodyA = '{"id":"evt_1","data":{"object":{"amount":1000,"meta":{"k":"v"}}},"items":[1,2],"old":true}';
    const bodyB = '{"id":"evt_1","data":{"object":{"amount":2500,"meta":{"k":"w","n":1}}},"items":[1,2,3],"new":null}';
    const a = await deliver('/orders?x=1&tag=a&tag=b', {
      method: 'POST',
      headers: [
        ['Content-Type', 'application/json'],
        ['X-Event', 'order.created'],
        ['X-Old', 'gone'],
        ['X-Multi', ['1', '2']],
      ],
      body: bodyA,
    });
    const b = await deliver('/orders/2?x=1&tag=b&y=2', {
      method: 'PUT',
      headers: [
        ['content-type', 'application/json'],
        ['X-Event', 'order.updated'],
        ['X-New', 'here'],
        ['x-multi', ['1', '3']],
      ],
      body: bodyB,
    });
    const r = await compare(a, b);
    assert.equal(r.status, 200);
    const c = r.body.data;
    assert.deepEqual(c.a.id, a);
    assert.deepEqual(c.b.id, b);
    // Each side says when its log arrived exactly as the log's detail does (an ISO 8601 string).
    const detailA = (await t.api('GET', `/api/webhooks/logs/${a}`)).body.data;
    assert.deepEqual(c.a, {
      id: a,
      endpointId: ep,
      method: 'POST',
      path: '/orders',
      receivedAt: detailA.receivedAt,
      status: 'success',
      contentType: 'application/json',
      size: bodyA.length,
      truncated: false,
    });
    assert.match(c.a.receivedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(c.b.receivedAt, (await t.api('GET', `/api/webhooks/logs/${b}`)).body.data.receivedAt);
    assert.deepEqual([c.a.method, c.a.path, c.b.method, c.b.path], ['POST', '/orders', 'PUT', '/orders/2']);
    assert.equal(c.identical, false);
    assert.deepEqual(c.request, {
      method: { a: 'POST', b: 'PUT', changed: true },
      path: { a: '/orders', b: '/orders/2', changed: true },
      query: {
        added: [{ name: 'y', values: ['2'] }],
        removed: [],
        changed: [{ name: 'tag', a: ['a', 'b'], b: ['b'] }],
      },
    });
    assert.deepEqual(c.headers, {
      added: [{ name: 'X-New', values: ['here'] }],
      removed: [{ name: 'X-Old', values: ['gone'] }],
      changed: [
        { name: 'X-Event', a: ['order.created'], b: ['order.updated'] },
        { name: 'x-multi', a: ['1', '2'], b: ['1', '3'] },
        { name: 'Content-Length', a: [String(bodyA.length)], b: [String(bodyB.length)] },
      ],
    });
    assert.deepEqual(c.body, {
      changed: true,
      format: 'json',
      sizes: { a: bodyA.length, b: bodyB.length },
      sha256: { a: sha(bodyA), b: sha(bodyB) },
      json: [
        { path: '$.data.object.amount', kind: 'changed', a: '1000', b: '2500' },
        { path: '$.data.object.meta.k', kind: 'changed', a: '"v"', b: '"w"' },
        { path: '$.data.object.meta.n', kind: 'added', a: null, b: '1' },
        { path: '$.items[2]', kind: 'added', a: null, b: '3' },
        { path: '$.old', kind: 'removed', a: 'true', b: null },
        { path: '$.new', kind: 'added', a: null, b: 'null' },
      ],
      patch: '',
      changes: [],
      limited: null,
    });
  });

  test('text bodies: a line diff', async () => {
    const headers: [string, string][] = [['Content-Type', 'text/plain']];
    const a = await deliver('/t', { headers, body: 'one\ntwo\nthree\n' });
    const b = await deliver('/t', { headers, body: 'one\n2\nthree\n' });
    const c = (await compare(a, b)).body.data;
    assert.equal(c.body.format, 'text');
    assert.equal(
      c.body.patch,
      `===================================================================\n--- a/${a}\n+++ b/${b}\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n`,
    );
    assert.deepEqual(c.body.changes, [
      { value: 'one\n', added: false, removed: false, count: 1 },
      { value: 'two\n', added: false, removed: true, count: 1 },
      { value: '2\n', added: true, removed: false, count: 1 },
      { value: 'three\n', added: false, removed: false, count: 1 },
    ]);
    assert.deepEqual(c.headers, {
      added: [],
      removed: [],
      changed: [{ name: 'Content-Length', a: ['14'], b: ['12'] }],
    });
  });

  test('binary bodies: they differ by size and hash, without a line diff', async () => {
    const bytesA = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    const bytesB = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xfe, 0xfd]);
    const headers: [string, string][] = [['Content-Type', 'application/octet-stream']];
    const a = await deliver('/bin', { headers, body: bytesA });
    const b = await deliver('/bin', { headers, body: bytesB });
    const c = (await compare(a, b)).body.data;
    assert.deepEqual(c.body, {
      changed: true,
      format: 'binary',
      sizes: { a: 6, b: 7 },
      sha256: { a: sha(bytesA), b: sha(bytesB) },
      json: [],
      patch: '',
      changes: [],
      limited: null,
    });
  });

  test('the same log twice is identical, with nothing listed', async () => {
    const a = await deliver('/same', { headers: [['Content-Type', 'application/json']], body: '{"a":[1,2]}' });
    const r = await compare(a, a);
    assert.equal(r.status, 200);
    const c = r.body.data;
    assert.equal(c.identical, true);
    assert.deepEqual(c.request, {
      method: { a: 'POST', b: 'POST', changed: false },
      path: { a: '/same', b: '/same', changed: false },
      query: { added: [], removed: [], changed: [] },
    });
    assert.deepEqual(c.headers, { added: [], removed: [], changed: [] });
    assert.deepEqual(
      [c.body.changed, c.body.format, c.body.json, c.body.patch, c.body.limited],
      [false, 'json', [], '', null],
    );
  });

  test("another account's log, or an unknown one, is 404 on either side; a missing id is 400", async () => {
    const mine = await deliver('/mine', { body: 'x' });
    for (const [a, b] of [
      [mine, 'log_nope'],
      ['log_nope', mine],
    ]) {
      const r = await compare(a!, b!);
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'LOG_NOT_FOUND');
    }
    const foreign = await compare(mine, mine, otherToken);
    assert.equal(foreign.status, 404, "the other account sees this account's log as missing");
    assert.equal(foreign.body.error.code, 'LOG_NOT_FOUND');
    const missing = await t.api('GET', `/api/webhooks/compare?a=${mine}`);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details.issues[0].field, 'b');
  });
});
