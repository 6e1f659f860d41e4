import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request, type ClientRequest } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'custom-response-secret';

interface Answer {
  status: number;
  /** As received, flat: name, value, name, value... */
  rawHeaders: string[];
  body: string;
}

/** A delivery over node:http (fetch hides header case and order); `sent` is the request, to hang up on. */
function deliver(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): { sent: ClientRequest; answer: Promise<Answer> } {
  const sent = request(url, { method: opts.method ?? 'POST', headers: opts.headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    sent.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    sent.on('error', reject);
  });
  sent.end(opts.body);
  return { sent, answer };
}

/** The next log the receiver stores for the local account, as `log.created` announces it. */
function nextStoredLog(t: TestEngine): Promise<string> {
  return new Promise((resolve) => {
    const off = t.engine.events.subscribe(accountIdFor(LOCAL_ACCOUNT), (e) => {
      if (e.type !== 'log.created') return;
      off();
      resolve(e.data.id);
    });
  });
}

/** Every header but Date (the clock's), as [name, value] pairs in the order received. */
function withoutDate(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'date') pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

const sign = (body: string): string => createHmac('sha256', SECRET).update(body).digest('hex');

const ANSWER = {
  status: 503,
  headers: [
    { name: 'X-Provider-Test', value: 'Retry me' },
    { name: 'X-Repeated', value: 'a=1' },
    { name: 'X-Repeated', value: 'b=2' },
    { name: 'Content-Type', value: 'text/plain; charset=utf-8' },
  ],
  body: 'down for maintenance',
  delayMs: 0,
};

describe('custom response per endpoint', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  test('create and read back the custom response; an endpoint without one shows null', async () => {
    const created = await t.api('POST', '/api/endpoints', {
      body: { name: 'c', validationType: 'none', customResponse: { status: 202 } },
    });
    assert.equal(created.status, 201);
    const expected = { status: 202, headers: [], body: '', delayMs: 0 };
    assert.deepEqual(created.body.data.customResponse, expected, 'defaults filled in');
    const read = await t.api('GET', `/api/endpoints/${created.body.data.id}`);
    assert.deepEqual(read.body.data.customResponse, expected);
    const plain = await t.endpoint({ name: 'p', validationType: 'none' });
    assert.equal((await t.api('GET', `/api/endpoints/${plain}`)).body.data.customResponse, null);
  });

  test('an accepted delivery gets exactly the custom status, headers and body', async () => {
    const id = await t.endpoint({ name: 'c', validationType: 'none', customResponse: ANSWER });
    const stored = nextStoredLog(t);
    const r = await deliver(`${t.engine.receiverUrl}/webhook/${id}/hook`, { body: '{"n":1}' }).answer;
    const logId = await stored;
    assert.equal(r.status, 503);
    assert.equal(r.body, 'down for maintenance');
    assert.deepEqual(withoutDate(r.rawHeaders), [
      ['Content-Security-Policy', "sandbox; default-src 'none'"],
      ['X-Content-Type-Options', 'nosniff'],
      ['X-Provider-Test', 'Retry me'],
      ['X-Repeated', 'a=1'],
      ['X-Repeated', 'b=2'],
      ['Content-Type', 'text/plain; charset=utf-8'],
      ['Content-Length', '20'],
      ['Hookscope-Log-Id', logId],
      ['Connection', 'keep-alive'],
      ['Keep-Alive', 'timeout=5'],
    ]);
    const log = (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data;
    assert.deepEqual([log.status, log.path, log.body], ['success', '/hook', '{"n":1}']);
  });

  test('a 204 answer has no Content-Length and no body', async () => {
    const id = await t.endpoint({ name: 'c', validationType: 'none', customResponse: { status: 204 } });
    const r = await deliver(`${t.engine.receiverUrl}/webhook/${id}`, { body: 'x' }).answer;
    assert.equal(r.status, 204);
    assert.equal(r.body, '');
    assert.deepEqual(
      withoutDate(r.rawHeaders).map(([n]) => n),
      ['Content-Security-Policy', 'X-Content-Type-Options', 'Hookscope-Log-Id', 'Connection', 'Keep-Alive'],
    );
  });

  test('a signed endpoint: a good signature gets the custom answer, a bad one still the 400 envelope', async () => {
    const id = await t.endpoint({
      name: 'signed',
      validationType: 'hmac_sha256',
      webhookSecret: SECRET,
      customResponse: { status: 299, body: 'custom' },
    });
    const url = `${t.engine.receiverUrl}/webhook/${id}`;
    const body = '{"ok":true}';
    const good = await deliver(url, { body, headers: { 'x-webhook-signature': sign(body) } }).answer;
    assert.deepEqual([good.status, good.body], [299, 'custom']);
    const bad = await deliver(url, { body, headers: { 'x-webhook-signature': sign('other') } }).answer;
    assert.equal(bad.status, 400);
    const envelope = JSON.parse(bad.body);
    assert.equal(envelope.error.code, 'SIGNATURE_VERIFICATION_FAILED');
    assert.match(envelope.error.details.logId, /^log_/);
  });

  test('an inactive endpoint still answers 410, not the custom answer', async () => {
    const id = await t.endpoint({ name: 'off', validationType: 'none', customResponse: { status: 200, body: 'hi' } });
    await t.api('PATCH', `/api/endpoints/${id}`, { body: { isActive: false } });
    const r = await deliver(`${t.engine.receiverUrl}/webhook/${id}`, { body: 'x' }).answer;
    assert.equal(r.status, 410);
    assert.equal(JSON.parse(r.body).error.code, 'ENDPOINT_INACTIVE');
  });

  test('PATCH replaces the custom response, and null removes it (the default { id } again)', async () => {
    const id = await t.endpoint({ name: 'c', validationType: 'none', customResponse: { status: 500 } });
    const url = `${t.engine.receiverUrl}/webhook/${id}`;
    const patched = await t.api('PATCH', `/api/endpoints/${id}`, {
      body: { customResponse: { status: 201, body: '{"queued":true}', delayMs: 5 } },
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.data.customResponse, {
      status: 201,
      headers: [],
      body: '{"queued":true}',
      delayMs: 5,
    });
    const r = await deliver(url, { body: 'x' }).answer;
    assert.deepEqual([r.status, r.body], [201, '{"queued":true}'], 'answered after its 5 ms delay');

    const cleared = await t.api('PATCH', `/api/endpoints/${id}`, { body: { customResponse: null } });
    assert.equal(cleared.body.data.customResponse, null);
    const plain = await deliver(url, { body: 'x' }).answer;
    assert.equal(plain.status, 200);
    assert.match(JSON.parse(plain.body).data.id, /^log_/);
  });

  test('invalid custom responses are 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ status: 200, delayMs: 30001 }, 'customResponse.delayMs'],
      [{ status: 200, delayMs: -1 }, 'customResponse.delayMs'],
      [{ status: 200, delayMs: 1.5 }, 'customResponse.delayMs'],
      [{ status: 199 }, 'customResponse.status'],
      [{ status: 600 }, 'customResponse.status'],
      [{ status: '200' }, 'customResponse.status'],
      [{}, 'customResponse.status'],
      [{ status: 200, body: 'x'.repeat(64 * 1024 + 1) }, 'customResponse.body'],
      // 3 bytes each in UTF-8: over the byte cap with fewer characters than it.
      [{ status: 200, body: '€'.repeat(22_000) }, 'customResponse.body'],
      [{ status: 204, body: 'no' }, 'customResponse.body'],
      [{ status: 304, body: 'no' }, 'customResponse.body'],
      [{ status: 200, headers: [{ name: 'Content-Length', value: '3' }] }, 'customResponse.headers.0.name'],
      [{ status: 200, headers: [{ name: 'transfer-encoding', value: 'chunked' }] }, 'customResponse.headers.0.name'],
      [{ status: 200, headers: [{ name: 'Connection', value: 'close' }] }, 'customResponse.headers.0.name'],
      [{ status: 200, headers: [{ name: 'Hookscope-Log-Id', value: 'x' }] }, 'customResponse.headers.0.name'],
      [{ status: 200, headers: [{ name: 'Set-Cookie', value: 'session=stolen' }] }, 'customResponse.headers.0.name'],
      [
        {
          status: 200,
          headers: [
            { name: 'X-A', value: 'b' },
            { name: 'set-cookie2', value: 'x=1' },
          ],
        },
        'customResponse.headers.1.name',
      ],
      [{ status: 200, headers: [{ name: 'Bad Name', value: 'x' }] }, 'customResponse.headers.0.name'],
      [{ status: 200, headers: [{ name: 'X-A', value: 'a\r\nX-Injected: 1' }] }, 'customResponse.headers.0.value'],
      [{ status: 200, headers: [{ name: 'X-A', value: 'snow ☃' }] }, 'customResponse.headers.0.value'],
      [{ status: 200, headers: { 'X-A': 'b' } }, 'customResponse.headers'],
      [
        { status: 200, headers: Array.from({ length: 51 }, () => ({ name: 'X-A', value: 'b' })) },
        'customResponse.headers',
      ],
      ['500', 'customResponse'],
    ];
    for (const [customResponse, field] of cases) {
      const r = await t.api('POST', '/api/endpoints', { body: { name: 'c', validationType: 'none', customResponse } });
      const label = JSON.stringify(customResponse).slice(0, 80);
      assert.equal(r.status, 400, label);
      assert.equal(r.body.error.details.issues[0].field, field, label);
    }
    const id = await t.endpoint({ name: 'c', validationType: 'none' });
    const patch = await t.api('PATCH', `/api/endpoints/${id}`, {
      body: { customResponse: { status: 200, delayMs: 30001 } },
    });
    assert.equal(patch.status, 400);
    assert.match(patch.body.error.message, /customResponse\.delayMs.*at most 30 s/);
    const edges = await t.api('PATCH', `/api/endpoints/${id}`, {
      body: { customResponse: { status: 599, delayMs: 30000, body: 'x'.repeat(64 * 1024) } },
    });
    assert.equal(edges.status, 200, 'the limits themselves are allowed');
  });

  test('the delivery is stored before the delay, and stays stored when the sender hangs up during it', async () => {
    const id = await t.endpoint({
      name: 'slow',
      validationType: 'none',
      customResponse: { status: 500, delayMs: 30_000 },
    });
    const stored = nextStoredLog(t);
    const { sent, answer } = deliver(`${t.engine.receiverUrl}/webhook/${id}`, { body: 'patience' });
    answer.catch(() => undefined);
    const logId = await stored;
    sent.destroy();
    await assert.rejects(answer, /socket hang up/);
    const log = await t.api('GET', `/api/webhooks/logs/${logId}`);
    assert.equal(log.status, 200);
    assert.deepEqual([log.body.data.status, log.body.data.body], ['success', 'patience']);
  });

  test('the test delivery reports the custom status and the stored log', async () => {
    const id = await t.endpoint({ name: 'c', validationType: 'none', customResponse: { status: 418, body: 'teapot' } });
    const r = await t.api('POST', `/api/endpoints/${id}/test-delivery`);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.status, 418);
    const log = await t.api('GET', `/api/webhooks/logs/${r.body.data.logId}`);
    assert.equal(log.body.data.endpointId, id);
  });
});

describe('custom response and shutdown', () => {
  test('a delivery waiting out a 30 s delay is answered at once when the engine stops', async () => {
    const t = await startTestEngine();
    let stopped = false;
    try {
      const id = await t.endpoint({
        name: 'slow',
        validationType: 'none',
        customResponse: { status: 503, body: 'later', delayMs: 30_000 },
      });
      const stored = nextStoredLog(t);
      const { answer } = deliver(`${t.engine.receiverUrl}/webhook/${id}`, { body: 'x' });
      const logId = await stored;
      await t.stop();
      stopped = true;
      const r = await answer;
      assert.deepEqual([r.status, r.body], [503, 'later']);
      const headers = withoutDate(r.rawHeaders);
      assert.deepEqual(headers, [
        ['Content-Security-Policy', "sandbox; default-src 'none'"],
        ['X-Content-Type-Options', 'nosniff'],
        ['Content-Length', '5'],
        ['Hookscope-Log-Id', logId],
        ['Connection', 'close'],
      ]);
    } finally {
      if (!stopped) await t.stop();
    }
  });

  test('a delivery waiting out its delay holds none of the in-flight body budget', async () => {
    // Room for one 600-byte body at a time: a second is refused (503) while the first holds its share.
    const t = await startTestEngine({ receiver: { ...DEFAULT_CONFIG.receiver, maxInFlightBodyBytes: 1000 } });
    try {
      const slow = await t.endpoint({
        name: 'slow',
        validationType: 'none',
        customResponse: { status: 202, delayMs: 30_000 },
      });
      const plain = await t.endpoint({ name: 'plain', validationType: 'none' });
      const stored = nextStoredLog(t);
      const waiting = deliver(`${t.engine.receiverUrl}/webhook/${slow}`, { body: 'a'.repeat(600) });
      waiting.answer.catch(() => undefined);
      const logId = await stored;
      // Read back: the database worker holds the record, so the body's share is released by now.
      assert.equal((await t.api('GET', `/api/webhooks/logs/${logId}`)).status, 200);
      const next = await deliver(`${t.engine.receiverUrl}/webhook/${plain}`, { body: 'b'.repeat(600) }).answer;
      assert.equal(next.status, 200, next.body);
      waiting.sent.destroy();
    } finally {
      await t.stop();
    }
  });

  test('a custom response survives a restart (stored with the endpoint)', async () => {
    const first = await startTestEngine();
    const dataDir = first.dataDir;
    let id: string;
    try {
      id = await first.endpoint({ name: 'kept', validationType: 'none', customResponse: ANSWER });
    } finally {
      await first.engine.stop();
    }
    const again = await startTestEngine({}, {}, dataDir);
    try {
      assert.deepEqual((await again.api('GET', `/api/endpoints/${id}`)).body.data.customResponse, ANSWER);
      const r = await deliver(`${again.engine.receiverUrl}/webhook/${id}`, { body: 'x' }).answer;
      assert.deepEqual([r.status, r.body], [503, 'down for maintenance']);
    } finally {
      await again.stop();
      await first.stop();
    }
  });
});

describe('custom response delay', () => {
  test('delayMs is milliseconds: 1500 is answered after 1.5 s, neither at once nor 1,500 s later', async () => {
    const t = await startTestEngine();
    const guard = new AbortController();
    let sent: ClientRequest | undefined;
    try {
      const id = await t.endpoint({
        name: 'slow',
        validationType: 'none',
        customResponse: { status: 202, body: 'late', delayMs: 1500 },
      });
      assert.equal((await t.api('GET', `/api/endpoints/${id}`)).body.data.customResponse.delayMs, 1500);
      const started = performance.now();
      const delivery = deliver(`${t.engine.receiverUrl}/webhook/${id}`, { body: 'x' });
      sent = delivery.sent;
      // Far below 1,500 s and far above 1.5 s: a delay taken as seconds fails here instead of hanging the test.
      const tooLate = delay(10_000, 'not answered within 10 s', { signal: guard.signal });
      const r = await Promise.race([delivery.answer, tooLate]);
      const elapsed = performance.now() - started;
      if (typeof r === 'string') assert.fail(r);
      assert.deepEqual([r.status, r.body], [202, 'late']);
      // A timer never fires early; the margin covers the clocks' millisecond rounding.
      assert.ok(elapsed >= 1400, `answered after ${Math.round(elapsed)} ms, before its 1500 ms delay`);
    } finally {
      guard.abort();
      sent?.destroy();
      await t.stop();
    }
  });
});
