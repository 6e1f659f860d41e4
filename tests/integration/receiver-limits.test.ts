import assert from 'node:assert/strict';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { postHead, slowSender } from '../helpers/slow-sender.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/** Waits for a promise, turning a hang into a readable failure (not a timing assertion). */
async function within<T>(what: string, p: Promise<T>, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer for ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}

describe('receiver timeouts: slow senders are cut off, answered 408 and recorded', () => {
  let t: TestEngine;
  let ep: string;
  before(async () => {
    t = await startTestEngine({
      maxBodyBytes: 1_000_000,
      receiver: { ...DEFAULT_CONFIG.receiver, headersTimeoutMs: 400, requestTimeoutMs: 1500, bodyIdleTimeoutMs: 500 },
    });
    ep = await t.endpoint({ name: 'slow', validationType: 'none' });
  });
  after(() => t.stop());

  test('a body that stops arriving is cut off after the idle limit: 408, stored with the bytes that came', async () => {
    const s = slowSender(
      t.engine.receiverUrl,
      postHead(t.engine.receiverUrl, `/webhook/${ep}/slow?x=1`, { 'Content-Length': 100_000 }),
    );
    try {
      s.write('0123456789');
      const r = await within('the idle cut-off', s.response);
      assert.equal(r.status, 408);
      assert.equal(r.headers.connection, 'close');
      const e = r.json().error;
      assert.equal(e.code, 'REQUEST_TIMEOUT');
      assert.equal(e.details.reason, 'body_timeout');
      const log = (await t.api('GET', `/api/webhooks/logs/${e.details.logId}`)).body.data;
      assert.equal(log.status, 'failed');
      assert.equal(log.verification.reason, 'body_timeout');
      assert.equal(log.size, 10);
      assert.equal(log.declaredSize, 100_000);
      assert.equal(log.body, '0123456789');
      assert.equal(log.path, '/slow');
    } finally {
      s.close();
    }
  });

  test('a body that trickles in under the idle limit is cut off at the request limit', async () => {
    const s = slowSender(
      t.engine.receiverUrl,
      postHead(t.engine.receiverUrl, `/webhook/${ep}`, { 'Content-Length': 100_000 }),
    );
    const drip = setInterval(() => s.write('x'), 100);
    try {
      const r = await within('the request cut-off', s.response);
      assert.equal(r.status, 408);
      const e = r.json().error;
      assert.equal(e.details.reason, 'request_timeout');
      const log = (await t.api('GET', `/api/webhooks/logs/${e.details.logId}`)).body.data;
      assert.equal(log.verification.reason, 'request_timeout');
      // Every byte that arrived was kept (far below the preview size), and size counts exactly those.
      assert.equal(log.size, log.body.length);
      assert.equal(log.body, 'x'.repeat(log.size));
      assert.ok(log.size > 0 && log.size < 100_000, `size ${log.size}`);
    } finally {
      clearInterval(drip);
      s.close();
    }
  });

  test('headers that never finish get a 408 envelope and nothing is stored', async () => {
    const before = (await t.api('GET', `/api/webhooks/logs?endpointId=${ep}`)).body.data.total;
    const u = new URL(t.engine.receiverUrl);
    const s = slowSender(t.engine.receiverUrl, `POST /webhook/${ep} HTTP/1.1\r\nHost: ${u.host}\r\nX-Partial: `);
    try {
      const r = await within('the headers cut-off', s.response);
      assert.equal(r.status, 408);
      assert.deepEqual(r.json(), {
        success: false,
        error: { code: 'REQUEST_TIMEOUT', message: 'The request headers did not arrive in time.' },
      });
      assert.equal((await t.api('GET', `/api/webhooks/logs?endpointId=${ep}`)).body.data.total, before);
    } finally {
      s.close();
    }
  });

  test('a declared Content-Length over the limit is answered 413 before a byte of body is sent', async () => {
    const s = slowSender(
      t.engine.receiverUrl,
      postHead(t.engine.receiverUrl, `/webhook/${ep}`, { 'Content-Length': 5_000_000 }),
    );
    try {
      // No body is written at all: the answer cannot wait for one.
      const r = await within('the 413', s.response);
      assert.equal(r.status, 413);
      const log = (await t.api('GET', `/api/webhooks/logs/${r.json().error.details.logId}`)).body.data;
      assert.equal(log.size, 0);
      assert.equal(log.declaredSize, 5_000_000);
    } finally {
      s.close();
    }
  });

  test('a sender that writes a whole refused body at once still reads the 413, and the connection stays usable', async () => {
    const big = 'b'.repeat(5_000_000);
    // Also from a sender that asks for `Connection: close` (Node's client without an agent does).
    for (const connection of ['keep-alive', 'close', 'keep-alive', 'close', 'close']) {
      const s = slowSender(
        t.engine.receiverUrl,
        postHead(t.engine.receiverUrl, `/webhook/${ep}`, { 'Content-Length': big.length, Connection: connection }),
      );
      try {
        s.write(big);
        const r = await within('the 413', s.response);
        assert.equal(r.status, 413);
        assert.equal(r.json().error.code, 'PAYLOAD_TOO_LARGE');
      } finally {
        s.close();
      }
    }
  });

  test('malformed HTTP gets a 400 envelope from both listeners', async () => {
    for (const base of [t.engine.receiverUrl, t.engine.apiUrl]) {
      const s = slowSender(base, 'POST /webhook/x HTTP/1.1\r\nContent-Length: nope\r\n\r\n');
      try {
        const r = await within('the 400', s.response);
        assert.equal(r.status, 400);
        assert.equal(r.json().error.code, 'BAD_REQUEST');
      } finally {
        s.close();
      }
    }
  });
});

describe('receiver rate limit: a token bucket per endpoint', () => {
  let t: TestEngine;
  let a: string;
  let b: string;
  const clock = new ManualClock(Date.parse('2025-03-01T10:00:00.000Z'));
  before(async () => {
    t = await startTestEngine(
      { receiver: { ...DEFAULT_CONFIG.receiver, rateLimit: { perSecond: 2, burst: 3 } } },
      { clock },
    );
    a = await t.endpoint({ name: 'a', validationType: 'none' });
    b = await t.endpoint({ name: 'b', validationType: 'none' });
  });
  after(() => t.stop());

  test('the burst passes, the next is 429 with Retry-After and stores nothing; tokens come back with time; other endpoints are unaffected', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.deliver(`/webhook/${a}`, { body: `ok ${i}` })).status, 200);
    const limited = await t.deliver(`/webhook/${a}`, { body: 'over' });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1');
    assert.equal(limited.body.error.code, 'RATE_LIMITED');
    assert.equal(
      limited.body.error.message,
      'This endpoint receives at most 2 deliveries per second (bursts of 3); retry in 1 s.',
    );
    assert.deepEqual(limited.body.error.details, { retryAfterSeconds: 1 });
    // Another endpoint has its own bucket.
    assert.equal((await t.deliver(`/webhook/${b}`, { body: 'b' })).status, 200);
    // Half a second gives one token back (2 per second), not two.
    clock.advance(500);
    assert.equal((await t.deliver(`/webhook/${a}`, { body: 'refilled' })).status, 200);
    assert.equal((await t.deliver(`/webhook/${a}`, { body: 'over again' })).status, 429);

    const logs = (await t.api('GET', `/api/webhooks/logs?endpointId=${a}`)).body.data;
    assert.equal(logs.total, 4);
    assert.deepEqual(
      logs.logs.map((l: { size: number }) => l.size),
      [8, 4, 4, 4],
    );
    const m = (await t.api('GET', `/api/observability/metrics?window=1h&endpointId=${a}`)).body.data;
    assert.deepEqual(m.totals, { received: 6, success: 4, failed: 0, rejected: 2 });
    assert.deepEqual(m.rejections, [{ reason: 'rate_limited', count: 2 }]);
  });
});

describe('receiver rate limit switched off', () => {
  test('perSecond 0 lets every delivery through', async () => {
    const t = await startTestEngine(
      { receiver: { ...DEFAULT_CONFIG.receiver, rateLimit: { perSecond: 0, burst: 1 } } },
      { clock: new ManualClock(0) },
    );
    try {
      const ep = await t.endpoint({ name: 'open', validationType: 'none' });
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.deliver(`/webhook/${ep}`, { body: String(i) }).then((r) => r.status)),
      );
      assert.deepEqual(statuses, Array(20).fill(200));
    } finally {
      await t.stop();
    }
  });
});

describe('receiver memory budget: body bytes in flight across all requests', () => {
  let t: TestEngine;
  let ep: string;
  before(async () => {
    t = await startTestEngine({
      maxBodyBytes: 60_000,
      receiver: { ...DEFAULT_CONFIG.receiver, maxInFlightBodyBytes: 100_000 },
    });
    ep = await t.endpoint({ name: 'budget', validationType: 'none' });
  });
  after(() => t.stop());

  test('a delivery that would go over the budget gets 503 with Retry-After before its body is read, and is recorded', async () => {
    // The first holds 60,000 bytes of the budget while its body is still coming.
    const first = slowSender(
      t.engine.receiverUrl,
      postHead(t.engine.receiverUrl, `/webhook/${ep}`, { 'Content-Length': 60_000 }),
    );
    try {
      first.write('a'.repeat(1000));
      // 60,000 + 50,000 > 100,000: refused from the Content-Length. Its sender writes the
      // whole body at once, as senders do, and must still read the answer (not a reset).
      const second = slowSender(
        t.engine.receiverUrl,
        postHead(t.engine.receiverUrl, `/webhook/${ep}`, { 'Content-Length': 50_000 }),
      );
      second.write('s'.repeat(50_000));
      try {
        const r = await within('the 503', second.response);
        assert.equal(r.status, 503);
        assert.equal(r.headers['retry-after'], '1');
        const e = r.json().error;
        assert.equal(e.code, 'SERVER_BUSY');
        const log = (await t.api('GET', `/api/webhooks/logs/${e.details.logId}`)).body.data;
        assert.equal(log.verification.reason, 'server_busy');
        assert.equal(log.size, 0);
        assert.equal(log.declaredSize, 50_000);
      } finally {
        second.close();
      }
      // 60,000 + 40,000 fits exactly.
      assert.equal((await t.deliver(`/webhook/${ep}`, { body: 'c'.repeat(40_000) })).status, 200);
      // The first completes; its share of the budget comes back once the database holds it,
      // which a read of it (same ordered channel to the database worker) waits for.
      first.write('a'.repeat(59_000));
      const done = await within('the first delivery', first.response);
      assert.equal(done.status, 200);
      assert.equal((await t.api('GET', `/api/webhooks/logs/${done.json().data.id}`)).body.data.size, 60_000);
    } finally {
      first.close();
    }
    const last = await t.deliver(`/webhook/${ep}`, { body: 'd'.repeat(50_000) });
    assert.equal(last.status, 200);
    // Stored, so its share of the budget is back before the next test.
    assert.equal((await t.api('GET', `/api/webhooks/logs/${last.body.data.id}`)).status, 200);
  });

  test('a chunked body that outgrows the budget is cut with 503 and keeps the bytes that arrived', async () => {
    const first = slowSender(
      t.engine.receiverUrl,
      postHead(t.engine.receiverUrl, `/webhook/${ep}`, { 'Content-Length': 60_000 }),
    );
    try {
      first.write('a');
      const chunked = slowSender(
        t.engine.receiverUrl,
        postHead(t.engine.receiverUrl, `/webhook/${ep}`, { 'Transfer-Encoding': 'chunked' }),
      );
      try {
        const chunk = 'z'.repeat(30_000);
        chunked.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        chunked.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        const r = await within('the chunked 503', chunked.response);
        assert.equal(r.status, 503);
        const log = (await t.api('GET', `/api/webhooks/logs/${r.json().error.details.logId}`)).body.data;
        assert.equal(log.verification.reason, 'server_busy');
        assert.equal(log.declaredSize, null);
        // Every byte that arrived is within the 60,000-byte preview, so all of it was kept.
        assert.ok(log.size > 40_000 && log.size <= 60_000, `size ${log.size}`);
        assert.equal(log.truncated, false);
        assert.equal(log.body, 'z'.repeat(log.size));
      } finally {
        chunked.close();
      }
    } finally {
      first.close();
    }
  });
});
