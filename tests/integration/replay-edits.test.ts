import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { snapshotQuery } from '../helpers/snapshot-query.ts';
import { openSse, type SseStream } from '../helpers/sse-stream.ts';
import { TargetServer, type Received } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const STRIPE_SECRET = 'whsec_replay_edits_secret';
// Not UTF-8 (0xff, 0xfe), with a NUL and a line break: read back only as base64.
const ORIGINAL = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x00, 0x0a, 0x31, 0x7d]);
const ORIGINAL_HEADERS = {
  'Content-Type': 'application/octet-stream',
  'X-Custom': 'same',
  'X-Trace': 'trace-1',
};

interface Exchange {
  id: string;
  method: string;
  targetUrl: string;
  edited: boolean;
  requestHeaders: [string, string][];
  requestBody: string;
  requestBodyEncoding: 'utf8' | 'base64';
  requestBodySize: number;
  requestBodyTruncated: boolean;
  status: number;
  responseBody: string;
  bodyEncoding: 'utf8' | 'base64';
}

/**
 * History marks edited replays, and the request each attempt sent can be read
 * back: one stored delivery (a body that is not UTF-8) replayed plainly,
 * re-signed, and edited in each way, to a real target that records the exact
 * bytes it got. What the engine says it sent must be what arrived.
 */
describe('replay: edited attempts and the request as sent', () => {
  let t: TestEngine;
  let target: TargetServer;
  let events: SseStream;
  let otherToken: string;
  let endpointId: string;
  let logId: string;

  before(async () => {
    t = await startTestEngine({ sseHeartbeatMs: 50 });
    otherToken = await t.engine.issueToken('someone-else');
    target = await TargetServer.start((r) => ({ status: 202, body: `got ${r.body.length} bytes` }));
    events = await openSse(`${t.engine.apiUrl}/api/events`, { authorization: `Bearer ${t.token}` });
    await events.waitForText(/retry: \d+/);
    // A Stripe endpoint, so that re-signing changes the headers; the delivery's own signature is missing (a failed log).
    endpointId = await t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
    const r = await t.deliver(`/webhook/${endpointId}/hooks?x=1`, {
      method: 'PUT',
      body: ORIGINAL,
      headers: ORIGINAL_HEADERS,
    });
    logId = r.body.error.details.logId as string;
    assert.match(logId, /^log_/);
  });
  after(async () => {
    events.close();
    await target.close();
    await t.stop();
  });

  /** Replays, then reads the attempt back; returns it with what the target received. */
  const replayed = async (input: Record<string, unknown>): Promise<{ sent: Exchange; received: Received }> => {
    const before = target.received.length;
    const r = await t.api('POST', `/api/replay/${logId}`, { body: { targetUrl: `${target.url}/to`, ...input } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(target.received.length, before + 1);
    const got = await t.api('GET', `/api/replay/${logId}/replays/${r.body.data.id}`);
    assert.equal(got.status, 200, JSON.stringify(got.body));
    // The answer to the replay says the same about editing as the read.
    assert.equal(r.body.data.edited, got.body.data.edited);
    return { sent: got.body.data as Exchange, received: target.received.at(-1)! };
  };

  const bodyOf = (e: Exchange): Buffer => Buffer.from(e.requestBody, e.requestBodyEncoding);

  /** The request read back is the one the target got: method, URL, headers in order and case, bytes. */
  const assertSentAsReceived = (sent: Exchange, received: Received): void => {
    assert.equal(sent.method, received.method);
    assert.equal(sent.targetUrl, `${target.url}${received.url}`);
    // node:http adds `Connection: close` last (each replay has its own connection); everything before is ours.
    assert.deepEqual(received.rawHeaders.at(-1), ['Connection', 'close']);
    assert.deepEqual(sent.requestHeaders, received.rawHeaders.slice(0, -1));
    assert.ok(bodyOf(sent).equals(received.body), 'the body read back must be the bytes the target received');
    assert.equal(sent.status, 202);
    assert.equal(sent.responseBody, `got ${received.body.length} bytes`);
  };

  test('a plain replay is not edited; its request reads back byte for byte, the body from the log', async () => {
    const { sent, received } = await replayed({});
    assert.equal(sent.edited, false);
    assert.equal(sent.method, 'PUT');
    assert.equal(sent.requestBodyEncoding, 'base64');
    assert.equal(sent.requestBody, ORIGINAL.toString('base64'));
    assertSentAsReceived(sent, received);
  });

  test('re-signing alone is not an edit, though the signature headers are new', async () => {
    const { sent, received } = await replayed({ resign: true });
    assert.equal(sent.edited, false);
    assert.match(received.headers['stripe-signature'] as string, /^t=\d+,v1=[0-9a-f]{64}$/);
    assertSentAsReceived(sent, received);
  });

  test('overrides that change nothing are no edit: the same method in lower case, a header set to its value, the same bytes', async () => {
    const { sent, received } = await replayed({
      method: 'put',
      headers: { 'X-Custom': 'same' },
      body: ORIGINAL.toString('base64'),
      bodyEncoding: 'base64',
    });
    assert.equal(sent.edited, false);
    assertSentAsReceived(sent, received);
  });

  test('another method is an edit; the body sent is still the log bytes', async () => {
    const { sent, received } = await replayed({ method: 'POST' });
    assert.equal(sent.edited, true);
    assert.equal(received.method, 'POST');
    assert.ok(bodyOf(sent).equals(ORIGINAL));
    assertSentAsReceived(sent, received);
  });

  test('a header changed, added or removed is an edit', async () => {
    for (const headers of [{ 'X-Custom': 'changed' }, { 'X-Added': 'new' }, { 'x-trace': null }]) {
      const { sent, received } = await replayed({ headers });
      assert.equal(sent.edited, true, JSON.stringify(headers));
      assertSentAsReceived(sent, received);
    }
  });

  test('an edited body is an edit and reads back exactly: UTF-8 text, binary bytes, nothing at all', async () => {
    const text = '{"edited":"héllo ✓","n":2}\n';
    const t1 = await replayed({ body: text, resign: true });
    assert.equal(t1.sent.edited, true);
    assert.equal(t1.sent.requestBodyEncoding, 'utf8');
    assert.equal(t1.sent.requestBody, text);
    assertSentAsReceived(t1.sent, t1.received);

    const bytes = Buffer.from([0x00, 0xc3, 0x28, 0xff, 0x80, 0x41]);
    const t2 = await replayed({ body: bytes.toString('base64'), bodyEncoding: 'base64' });
    assert.equal(t2.sent.edited, true);
    assert.equal(t2.sent.requestBodyEncoding, 'base64');
    assert.ok(bodyOf(t2.sent).equals(bytes));
    assertSentAsReceived(t2.sent, t2.received);

    const t3 = await replayed({ body: '' });
    assert.equal(t3.sent.edited, true);
    assert.equal(t3.sent.requestBody, '');
    assert.equal(t3.received.body.length, 0);
    assertSentAsReceived(t3.sent, t3.received);
  });

  test('history marks each attempt, newest first, and so do the live events', async () => {
    const r = await t.api('GET', `/api/replay/${logId}/history?limit=200`);
    assert.equal(r.status, 200);
    const history = r.body.data.history as { id: string; edited: boolean }[];
    // Oldest first below: plain, resign, no-op overrides, method, 3 headers, 3 bodies.
    const expected = [false, false, false, true, true, true, true, true, true, true];
    assert.deepEqual(
      history.map((h) => h.edited),
      [...expected].reverse(),
    );
    const live = events
      .events()
      .filter((e) => e.event === 'replay.completed')
      .map((e) => JSON.parse(e.data) as { id: string; edited: boolean });
    assert.deepEqual(
      live.map((e) => [e.id, e.edited]),
      [...history].reverse().map((h) => [h.id, h.edited]),
    );
  });

  test("another account's token reads no attempt (404, as a missing one)", async () => {
    const r = await t.api('GET', `/api/replay/${logId}/history?limit=1`);
    const id = r.body.data.history[0].id as string;
    const foreign = await t.api('GET', `/api/replay/${logId}/replays/${id}`, { token: otherToken });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'REPLAY_NOT_FOUND');
  });

  test('the edited requests go with their log: no row left, and their bytes in no snapshot', async () => {
    const snapshot = join(t.dataDir, 'store', 'hookscope.db');
    const marker = 'marker-of-an-edited-body-7d1f';
    await replayed({ body: marker });
    await t.engine.checkpoint();
    // The seven edited attempts above, and this one.
    assert.deepEqual(await snapshotQuery(snapshot, 'SELECT COUNT(*) FROM replay_requests'), [[8]]);
    assert.ok((await readFile(snapshot)).includes(marker), 'the edited body is stored');

    assert.equal((await t.api('DELETE', `/api/webhooks/logs/${logId}`)).status, 200);
    await t.engine.checkpoint();
    assert.deepEqual(await snapshotQuery(snapshot, 'SELECT COUNT(*) FROM replay_requests'), [[0]]);
    assert.deepEqual(await snapshotQuery(snapshot, 'SELECT COUNT(*) FROM replays'), [[0]]);
    assert.ok(!(await readFile(snapshot)).includes(marker), 'secure_delete erased the edited body');
  });
  test('an edited body over 64 KiB is sent whole and kept as its first 64 KiB, with its whole size', async () => {
    // A log of its own: the tests above share theirs and count its attempts.
    const d = await t.deliver(`/webhook/${endpointId}/big`, { body: '{}' });
    const ownLog = d.body.error.details.logId as string;
    const read = async (input: Record<string, unknown>) => {
      const r = await t.api('POST', `/api/replay/${ownLog}`, { body: { targetUrl: `${target.url}/to`, ...input } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const got = await t.api('GET', `/api/replay/${ownLog}/replays/${r.body.data.id}`);
      return { sent: got.body.data as Exchange, received: target.received.at(-1)! };
    };
    // A 3-byte character straddles the 64 KiB cut: the text read back stays UTF-8, without it.
    const big = Buffer.alloc(200 * 1024, 'a');
    big.write('✓', 64 * 1024 - 1);
    big.write('the end', big.length - 7);
    const { sent, received } = await read({ body: big.toString() });
    assert.ok(received.body.equals(big), 'the target gets every byte');
    assert.equal(sent.edited, true);
    assert.equal(sent.requestBodySize, big.length);
    assert.equal(sent.requestBodyTruncated, true);
    assert.equal(sent.requestBodyEncoding, 'utf8');
    assert.ok(bodyOf(sent).equals(big.subarray(0, 64 * 1024 - 1)), 'the first 64 KiB are kept, less the cut character');

    // Below the cap nothing is cut, and a plain replay reports the log's own size.
    const small = await read({ body: 'x'.repeat(64 * 1024) });
    assert.deepEqual([small.sent.requestBodySize, small.sent.requestBodyTruncated], [64 * 1024, false]);
    const plain = await read({});
    assert.deepEqual([plain.sent.requestBodySize, plain.sent.requestBodyTruncated], [2, false]);
  });
});
