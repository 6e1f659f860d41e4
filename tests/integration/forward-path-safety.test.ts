import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { TargetServer, waitUntil } from '../helpers/target-server.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const SECRET = 'path-safety-secret';
const sig = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
const FAST = { forward: { initialBackoffMs: 20, maxBackoffMs: 100, timeoutMs: 5_000 } };

/**
 * A request with its target exactly as given: fetch and the URL class would
 * resolve `..` and `%2e%2e` before sending, which is the very thing under test.
 */
function sendRaw(
  base: string,
  rawPath: string,
  method: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: rawPath,
        method,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('forwarding never leaves the forwardUrl path', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine(FAST);
  });
  after(() => t.stop());

  const forwardStatus = async (endpointId: string) =>
    (await t.api('GET', `/api/endpoints/${endpointId}/forward`)).body.data;

  test('signed deliveries with traversal sub-paths are captured as sent, recorded as UNSAFE_SUB_PATH forwards, and never reach the target', async () => {
    const target = await TargetServer.start();
    try {
      const forwardUrl = `${target.url}/local/hook`;
      const ep = await t.endpoint({
        name: 'traversal',
        validationType: 'hmac_sha256',
        webhookSecret: SECRET,
        forwardUrl,
      });
      const body = '{"event":"order.paid"}';
      const headers = { 'content-type': 'application/json', 'x-webhook-signature': sig(body) };
      const DOT = 'it contains a dot segment';
      const BACKSLASH = 'it contains a backslash';
      const OVERLONG = 'it contains an overlong UTF-8 encoding';
      // [raw sub-path and query as sent, method, sub-path kept in the log, offending segment, reason given]
      const unsafe: [string, string, string, string, string][] = [
        ['/../../admin/delete-all?confirm=yes', 'DELETE', '/../../admin/delete-all', '..', DOT],
        ['/%2e%2e/admin', 'POST', '/%2e%2e/admin', '%2e%2e', DOT],
        ['/%2E%2e/admin', 'POST', '/%2E%2e/admin', '%2E%2e', DOT],
        ['/.%2e/admin', 'POST', '/.%2e/admin', '.%2e', DOT],
        ['/..%5cadmin', 'POST', '/..%5cadmin', '..%5cadmin', BACKSLASH],
        ['/..\\admin', 'POST', '/..\\admin', '..\\admin', BACKSLASH],
        ['/%252e%252e/admin', 'POST', '/%252e%252e/admin', '%252e%252e', DOT],
        // Overlong UTF-8 dots (3 and 4 bytes), fullwidth dots (U+FF0E, and U+2025 "..") and IIS %u escapes.
        ['/%e0%80%ae%e0%80%ae/admin', 'POST', '/%e0%80%ae%e0%80%ae/admin', '%e0%80%ae%e0%80%ae', OVERLONG],
        [
          '/%F0%80%80%AE%F0%80%80%AE/admin',
          'POST',
          '/%F0%80%80%AE%F0%80%80%AE/admin',
          '%F0%80%80%AE%F0%80%80%AE',
          OVERLONG,
        ],
        ['/%ef%bc%8e%ef%bc%8e/admin', 'POST', '/%ef%bc%8e%ef%bc%8e/admin', '%ef%bc%8e%ef%bc%8e', DOT],
        ['/%e2%80%a5/admin', 'PUT', '/%e2%80%a5/admin', '%e2%80%a5', DOT],
        ['/%u002e%u002e/admin', 'POST', '/%u002e%u002e/admin', '%u002e%u002e', DOT],
        ['/%uff0e%uff0e/admin', 'POST', '/%uff0e%uff0e/admin', '%uff0e%uff0e', DOT],
      ];
      const logIds: string[] = [];
      for (const [raw, method] of unsafe) {
        const r = await sendRaw(t.engine.receiverUrl, `/webhook/${ep}${raw}`, method, body, headers);
        assert.equal(r.status, 200, `${raw} is captured`);
        logIds.push(r.body.data.id as string);
      }
      // The lane delivers in order: once the safe one arrives, every unsafe one before it was handled.
      const safe = await sendRaw(t.engine.receiverUrl, `/webhook/${ep}/orders/42?x=1`, 'POST', body, headers);
      assert.equal(safe.status, 200);
      await target.waitForCount(1);
      const s = await waitUntil(async () => {
        const st = await forwardStatus(ep);
        return st.pending === 0 && st.state === 'idle' && st;
      }, 'the queue to drain');

      assert.deepEqual(
        target.received.map((r) => `${r.method} ${r.url}`),
        ['POST /local/hook/orders/42?x=1'],
        'the target received only the safe delivery, below its path',
      );

      for (const [i, [raw, method, path, segment, why]] of unsafe.entries()) {
        const log = (await t.api('GET', `/api/webhooks/logs/${logIds[i]}`)).body.data;
        assert.equal(log.path, path, `${raw}: the capture keeps the path as sent`);
        assert.equal(log.method, method);
        assert.equal(log.status, 'success');
        const h = (await t.api('GET', `/api/replay/${logIds[i]}/history`)).body.data;
        assert.equal(h.total, 1, `${raw}: recorded once, not retried`);
        const entry = h.history[0];
        assert.deepEqual(
          {
            trigger: entry.trigger,
            status: entry.status,
            targetUrl: entry.targetUrl,
            method: entry.method,
            code: entry.error.code,
          },
          { trigger: 'forward', status: null, targetUrl: forwardUrl, method, code: 'UNSAFE_SUB_PATH' },
        );
        assert.ok(
          entry.error.message.startsWith(`Log ${logIds[i]} was not forwarded, and will not be: The sub-path "${path}"`),
          entry.error.message,
        );
        assert.ok(
          entry.error.message.includes(
            `(segment "${segment}") cannot be appended below the path "/local/hook": ${why}`,
          ),
          entry.error.message,
        );
      }
      const first = (await t.api('GET', `/api/replay/${logIds[0]}/history`)).body.data.history[0];
      assert.equal(
        first.error.message,
        `Log ${logIds[0]} was not forwarded, and will not be: The sub-path "/../../admin/delete-all" (segment "..") cannot be appended below the path "/local/hook": ` +
          'it contains a dot segment ("." or ".."), plain, percent-encoded, %u-escaped or in look-alike characters that normalise (NFKC) to dots, that would lead out of it. ' +
          'A request is never sent outside the forwardUrl; the capture is kept as it arrived.',
      );

      assert.equal(s.attempts, 0);
      // lastError stays as the last one seen: the last unsafe delivery, before the safe one went out.
      assert.equal(s.lastError.code, 'UNSAFE_SUB_PATH');
      assert.ok(s.lastError.message.startsWith(`Log ${logIds.at(-1)} was not forwarded`), s.lastError.message);
      assert.equal(typeof s.lastDeliveredAt, 'string');
    } finally {
      await target.close();
    }
  });

  test('the forward state shows the refusal while nothing else was forwarded', async () => {
    const target = await TargetServer.start();
    try {
      const ep = await t.endpoint({ name: 'only-unsafe', validationType: 'none', forwardUrl: `${target.url}/base/` });
      const r = await sendRaw(t.engine.receiverUrl, `/webhook/${ep}/x/%2e%2e/%2e%2e/admin`, 'POST', 'payload', {});
      assert.equal(r.status, 200);
      const logId = r.body.data.id as string;
      const s = await waitUntil(async () => {
        const st = await forwardStatus(ep);
        return st.lastError !== null && st.pending === 0 && st.state === 'idle' && st;
      }, 'the refusal to be recorded');
      assert.deepEqual(
        {
          code: s.lastError.code,
          attempts: s.attempts,
          nextAttemptAt: s.nextAttemptAt,
          lastDeliveredAt: s.lastDeliveredAt,
        },
        { code: 'UNSAFE_SUB_PATH', attempts: 0, nextAttemptAt: null, lastDeliveredAt: null },
      );
      assert.ok(
        s.lastError.message.includes(
          '"/x/%2e%2e/%2e%2e/admin" (segment "%2e%2e") cannot be appended below the path "/base"',
        ),
        s.lastError.message,
      );
      const h = (await t.api('GET', `/api/replay/${logId}/history`)).body.data;
      assert.equal(h.total, 1);
      assert.equal(target.received.length, 0);
      const a = await t.api('POST', `/api/webhooks/logs/${logId}/analyze`);
      assert.equal(a.status, 200, JSON.stringify(a.body));
      assert.deepEqual(
        a.body.data.causes.map((c: { code: string }) => c.code),
        ['unsafe_sub_path'],
      );
    } finally {
      await target.close();
    }
  });
});
