import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../server/support/clock.ts';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

/**
 * A team server behind a reverse proxy (`--trust-proxy`): requests from the
 * trusted proxy (here 127.0.0.1) are the client X-Forwarded-For names; from
 * anywhere else (127.0.0.2) the socket's address, whatever the header says.
 */

const PROXY = '127.0.0.1';
const ELSEWHERE = '127.0.0.2';

describe('behind a trusted reverse proxy', () => {
  const clock = new ManualClock(Date.parse('2026-11-27T09:00:00Z'));
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ trustProxy: [PROXY], signInRateLimit: { perMinute: 2 } }, { clock });
  });
  after(() => t.stop());

  const redeem = (localAddress: string, forwardedFor: string) =>
    rawRequest(`${t.engine.apiUrl}/api/session`, {
      headers: [
        ['content-type', 'application/json'],
        ['x-forwarded-for', forwardedFor],
      ],
      body: JSON.stringify({ code: 'x'.repeat(43) }),
      localAddress,
    });

  test('the sign-in rate limit counts each forwarded client; a spoofed header from elsewhere is ignored', async () => {
    assert.equal((await redeem(PROXY, '198.51.100.1')).status, 401);
    assert.equal((await redeem(PROXY, '198.51.100.1')).status, 401);
    const limited = await redeem(PROXY, '198.51.100.1');
    assert.equal(limited.status, 429);
    assert.equal(
      limited.json().error.message,
      'Too many sign-in attempts from 198.51.100.1: at most 2 a minute. Try again in 60 s.',
    );
    // Another client behind the same proxy has its own budget.
    assert.equal((await redeem(PROXY, '192.0.2.1, 198.51.100.2')).status, 401);
    assert.equal((await redeem(PROXY, '198.51.100.2')).status, 401);
    assert.equal((await redeem(PROXY, '198.51.100.2')).status, 429);

    // Not the proxy: a fresh X-Forwarded-For each time buys no fresh budget.
    assert.equal((await redeem(ELSEWHERE, '203.0.113.1')).status, 401);
    assert.equal((await redeem(ELSEWHERE, '203.0.113.2')).status, 401);
    const spoofed = await redeem(ELSEWHERE, '203.0.113.3');
    assert.equal(spoofed.status, 429);
    assert.equal(
      spoofed.json().error.message,
      'Too many sign-in attempts from 127.0.0.2: at most 2 a minute. Try again in 60 s.',
    );
  });

  test("a delivery through the proxy stores the forwarded client as sourceIp; from elsewhere, the socket's address", async () => {
    const id = await t.endpoint({ name: 'proxied', validationType: 'none' });
    const deliver = async (localAddress: string, forwardedFor: string) => {
      const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${id}`, {
        headers: [
          ['content-type', 'text/plain'],
          ['x-forwarded-for', forwardedFor],
        ],
        body: 'hi',
        localAddress,
      });
      assert.equal(r.status, 200);
      const log = await t.api('GET', `/api/webhooks/logs/${r.json().data.id as string}`);
      return log.body.data.sourceIp as string;
    };
    assert.equal(await deliver(PROXY, '192.0.2.66, 198.51.100.9'), '198.51.100.9');
    assert.equal(await deliver(PROXY, '2001:db8::7'), '2001:db8::7');
    assert.equal(await deliver(ELSEWHERE, '198.51.100.9'), '127.0.0.2');
  });
});

describe('no trusted proxy (the default)', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
  });
  after(() => t.stop());

  test("X-Forwarded-For is ignored: sourceIp is the socket's address", async () => {
    const id = await t.endpoint({ name: 'direct', validationType: 'none' });
    const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${id}`, {
      headers: [['x-forwarded-for', '198.51.100.9']],
      body: 'hi',
      localAddress: PROXY,
    });
    assert.equal(r.status, 200);
    const log = await t.api('GET', `/api/webhooks/logs/${r.json().data.id as string}`);
    assert.equal(log.body.data.sourceIp, PROXY);
  });
});

describe('serve --trust-proxy', () => {
  test('a bad entry stops start-up before anything starts, naming the flag and the entry', async () => {
    const dir = await makeTempDir();
    try {
      const r = await runCliInProcess(dir, ['serve', '--trust-proxy', '127.0.0.1,proxy.local']);
      assert.equal(r.code, 2);
      assert.equal(
        r.err,
        'hookscope: --trust-proxy must be a comma-separated list of IP addresses or CIDR ranges, ' +
          'such as 127.0.0.1,10.0.0.0/8 (got "proxy.local" in "127.0.0.1,proxy.local").',
      );
      assert.equal(r.out, '');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
