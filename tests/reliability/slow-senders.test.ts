import assert from 'node:assert/strict';
import { after, before, test } from '../helpers/node-test.ts';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { SeededRandom } from '../../server/support/random.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { slowSender, type SlowSender } from '../helpers/slow-sender.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { startTunnelServer, type TunnelServer } from '../helpers/tunnel-server.ts';

/**
 * Issue: twelve connections through the tunnel that declare a large body and
 * then send one byte every few seconds held every socket the tunnel has (the
 * localtunnel server gives a client 10), so no other delivery got through.
 * With the receiver's timeouts they are cut off, and a real delivery arrives.
 * The limits are scaled down (1 s idle, 2 s request) so the test is short; the
 * trickle stays under the idle limit, so only the request limit can end it.
 */

async function within<T>(what: string, p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

let srv: TunnelServer;
let t: TestEngine;
before(async () => {
  srv = await startTunnelServer();
  t = await startTestEngine(
    {
      receiver: { ...DEFAULT_CONFIG.receiver, headersTimeoutMs: 1000, requestTimeoutMs: 2000, bodyIdleTimeoutMs: 1000 },
      tunnel: {
        ...DEFAULT_CONFIG.tunnel,
        enabled: true,
        host: srv.origin,
        probeOrigin: srv.origin,
        openTimeoutMs: 5000,
        probeIntervalMs: 0,
        backoffMinMs: 50,
        backoffMaxMs: 400,
      },
    },
    { random: new SeededRandom(8) },
  );
});
after(async () => {
  await t.stop();
  await srv.stop();
});

test('twelve trickling senders through the tunnel are cut off (408, recorded) and a real delivery still arrives', async () => {
  let url: string | null = null;
  for (let i = 0; i < 400 && !url; i++) {
    const s = (await t.api('GET', '/api/tunnel')).body.data;
    if (s.state === 'online') url = s.url as string;
    else await new Promise((r) => setTimeout(r, 25));
  }
  assert.ok(url, 'the tunnel came online');
  const host = `${new URL(url).hostname}:${srv.port}`;
  const ep = await t.endpoint({ name: 'public', validationType: 'none' });

  const slow: SlowSender[] = [];
  const drip = setInterval(() => slow.forEach((s) => s.write('.')), 300);
  try {
    for (let i = 0; i < 12; i++) {
      slow.push(
        slowSender(
          srv.origin,
          `POST /webhook/${ep}/slow/${i} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 100000\r\n\r\n`,
        ),
      );
    }
    // Let them take the tunnel's sockets before the real delivery is sent.
    await new Promise((r) => setTimeout(r, 300));
    const real = await within(
      'the real delivery',
      rawRequest(`${srv.origin}/webhook/${ep}/real`, { headers: [['Host', host]], body: '{"real":true}' }),
      20_000,
    );
    assert.equal(real.status, 200, real.body.toString());
    const answers = await within('the slow senders', Promise.allSettled(slow.map((s) => s.response)), 20_000);
    // The two the tunnel server queued behind the first ten are relayed once sockets free up, and cut off in turn.
    assert.deepEqual(
      answers.map((a) => (a.status === 'fulfilled' ? a.value.status : String(a.reason))),
      Array(12).fill(408),
    );
  } finally {
    clearInterval(drip);
    slow.forEach((s) => s.close());
  }
  const logs = (await t.api('GET', `/api/webhooks/logs?endpointId=${ep}&limit=200`)).body.data.logs as {
    path: string;
    verification: { reason: string | null };
  }[];
  const cut = logs.filter((l) => l.verification.reason === 'request_timeout');
  assert.deepEqual(cut.map((l) => l.path).sort(), Array.from({ length: 12 }, (_, i) => `/slow/${i}`).sort());
  assert.equal(logs.filter((l) => l.path === '/real').length, 1);
});
