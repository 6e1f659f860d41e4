import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from '../helpers/node-test.ts';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import { DEFAULT_CONFIG, type EngineConfig, type TunnelConfig } from '../../server/config/config.ts';
import type { EngineEvent } from '../../server/events/event-bus.ts';
import type { Clock } from '../../server/support/clock.ts';
import { SeededRandom } from '../../server/support/random.ts';
import { LocaltunnelProvider } from '../../server/tunnel/localtunnel-provider.ts';
import type { TunnelView } from '../../server/tunnel/tunnel-schemas.ts';
import { TunnelSupervisor } from '../../server/tunnel/tunnel-supervisor.ts';
import type { SupervisorStatus } from '../../server/tunnel/tunnel-types.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-request.ts';
import { startSilentDropFront } from '../helpers/silent-drop-front.ts';
import { slowSender } from '../helpers/slow-sender.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { startTunnelServer, type TunnelServer } from '../helpers/tunnel-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * What a day of use does to the public URL, against the reference localtunnel
 * server on loopback: long quiet between deliveries, and a laptop that slept
 * while the tunnel server dropped its sockets. Every earlier tunnel test sent
 * its delivery at once, so none saw the stale 408s these found.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let srv: TunnelServer;
before(async () => {
  srv = await startTunnelServer();
});
after(() => srv.stop());

const HEADERS_TIMEOUT_MS = 400;

function config(tunnel: Partial<TunnelConfig>): Partial<EngineConfig> {
  return {
    receiver: { ...DEFAULT_CONFIG.receiver, headersTimeoutMs: HEADERS_TIMEOUT_MS },
    tunnel: {
      ...DEFAULT_CONFIG.tunnel,
      enabled: true,
      host: srv.origin,
      probeOrigin: srv.origin,
      openTimeoutMs: 5000,
      probeTimeoutMs: 2000,
      backoffMinMs: 50,
      backoffMaxMs: 400,
      ...tunnel,
    },
  };
}

const tunnelStatus = async (t: TestEngine): Promise<TunnelView> => (await t.api('GET', '/api/tunnel')).body.data;
const online = (t: TestEngine) =>
  waitFor('the tunnel online', async () => {
    const s = await tunnelStatus(t);
    return s.state === 'online' ? s : undefined;
  });

function deliverThroughTunnel(publicUrl: string, path: string, body: string): Promise<RawResponse> {
  return rawRequest(`${srv.origin}${path}`, {
    headers: [
      ['Host', `${new URL(publicUrl).hostname}:${srv.port}`],
      ['Content-Type', 'application/json'],
    ],
    body,
  });
}

test('quiet for longer than the header timeout, then ten deliveries through the tunnel: every one is accepted and stored', async () => {
  // Probes off after the first, so nothing but the deliveries uses the pre-opened sockets.
  const t = await startTestEngine(config({ probeIntervalMs: 60_000 }), { random: new SeededRandom(31) });
  try {
    const s = await online(t);
    const ep = await t.endpoint({ name: 'quiet', validationType: 'none' });
    // Every socket localtunnel opened ahead of time sits idle past the timeout (and twice over).
    await sleep(HEADERS_TIMEOUT_MS * 4);
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await deliverThroughTunnel(s.url!, `/webhook/${ep}/n${i}`, JSON.stringify({ i }));
      answers.push(r.status);
    }
    assert.deepEqual(answers, Array(10).fill(200));
    const logs = (await t.api('GET', `/api/webhooks/logs?endpointId=${ep}&limit=50`)).body.data.logs as {
      path: string;
    }[];
    assert.deepEqual(
      logs.map((l) => l.path).sort(),
      Array.from({ length: 10 }, (_, i) => `/n${i}`),
    );
    // Quiet again, longer: still answered.
    await sleep(HEADERS_TIMEOUT_MS * 4);
    const late = await deliverThroughTunnel(s.url!, `/webhook/${ep}/late`, '{}');
    assert.equal(late.status, 200, late.body.toString());
  } finally {
    await t.stop();
  }
});

test('a direct sender that trickles its headers is still cut off at the header timeout', async () => {
  const t = await startTestEngine(config({ enabled: false }), { random: new SeededRandom(32) });
  try {
    const s = slowSender(t.engine.receiverUrl, 'POST /webhook/ep_x HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => s.write('X-Drip: 1\r\n'), 100);
    try {
      const r = await s.response;
      assert.equal(r.status, 408);
    } finally {
      clearInterval(drip);
      s.close();
    }
  } finally {
    await t.stop();
  }
});

test('the tunnel server drops the sockets silently: the status says degraded with the reason, the engine reconnects, and the next delivery is stored', async () => {
  const front = await startSilentDropFront(srv);
  const t = await startTestEngine(config({ host: front.origin, probeIntervalMs: 300, probeFailures: 2 }), {
    random: new SeededRandom(33),
  });
  const seen: TunnelView[] = [];
  const unsubscribe = t.engine.events.subscribe(accountIdFor(LOCAL_ACCOUNT), (e: EngineEvent) => {
    if (e.type === 'tunnel.status') seen.push(e.data);
  });
  try {
    const first = await online(t);
    assert.equal(typeof first.roundTripMs, 'number', 'the round trip through the tunnel is reported');
    assert.ok(first.checkedAt, 'with the time it was made');
    const ep = await t.endpoint({ name: 'slept', validationType: 'none' });
    await waitFor('the client sockets', () => front.carried() > 0);

    const from = seen.length;
    front.dropSilently();
    const degraded = await waitFor('degraded', () => seen.slice(from).find((s) => s.state === 'degraded'));
    assert.match(
      degraded.lastError!,
      // The server still waits for a socket of the client it has not forgotten yet, or has forgotten it.
      /^The public URL http:\/\/\S+ (did not answer: no answer from \S+ within 2000 ms|answered HTTP 404 instead of this engine's health check)\.$/,
    );
    assert.equal(degraded.url, first.url, 'a degraded tunnel keeps its URL');
    assert.equal(degraded.roundTripMs, null);
    assert.equal(
      (await t.api('GET', `/api/endpoints/${ep}`)).body.data.publicUrl,
      `${first.url}/webhook/${ep}`,
      'endpoints keep the public URL while degraded',
    );

    const back = await waitFor('online again', async () => {
      const s = await tunnelStatus(t);
      return s.state === 'online' && seen.slice(from).some((x) => x.state === 'offline') ? s : undefined;
    });
    const states = seen.slice(from).map((s) => s.state);
    assert.deepEqual(states.slice(0, 2), ['degraded', 'offline'], states.join(' '));
    const retrying = seen.slice(from).find((s) => s.state === 'offline' && s.retryAt !== null);
    assert.ok(retrying, 'offline says when it retries');
    assert.ok(Date.parse(retrying.retryAt!) >= Date.parse(retrying.since), 'a retry time after the drop');
    assert.equal(back.url, first.url, 'the server forgot the old client, so the same subdomain comes back');
    assert.equal(back.lastError, null);

    const r = await deliverThroughTunnel(back.url!, `/webhook/${ep}/after-sleep`, '{"woke":true}');
    assert.equal(r.status, 200, r.body.toString());
    const log = (await t.api('GET', `/api/webhooks/logs/${r.json().data.id}`)).body.data;
    assert.equal(log.path, '/after-sleep');
    assert.equal(log.body, '{"woke":true}');
  } finally {
    unsubscribe();
    await t.stop();
    await front.close();
  }
});

/** The wall clock, plus whatever a test adds: how a laptop's sleep looks to a process that never ran during it. */
class SleepingClock implements Clock {
  private slept = 0;
  now(): number {
    return Date.now() + this.slept;
  }
  sleep(ms: number): void {
    this.slept += ms;
  }
}

test('after the machine sleeps, the public URL is checked at once, not a probe interval later', async () => {
  const front = await startSilentDropFront(srv);
  const clock = new SleepingClock();
  const supervisor = new TunnelSupervisor({
    provider: new LocaltunnelProvider({ requestTimeoutMs: 2000 }),
    // An hour between probes: only the wake-up check can notice the drop within the test.
    timings: {
      openTimeoutMs: 5000,
      probeIntervalMs: 3_600_000,
      probeTimeoutMs: 2000,
      probeFailures: 2,
      backoffMinMs: 50,
      backoffMaxMs: 400,
    },
    probeOrigin: srv.origin,
    clock,
    random: new SeededRandom(34),
    onError: (e) => assert.fail(String(e)),
    wakeCheckMs: 50,
  });
  const seen: SupervisorStatus[] = [];
  supervisor.subscribe((s) => seen.push(s));
  // What the tunnel delivers to: only the health check matters here.
  const local = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, data: { status: 'ok' } }));
  });
  await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
  try {
    await supervisor.expose({
      host: front.origin,
      subdomain: 'sleepywake1',
      localPort: (local.address() as AddressInfo).port,
    });
    await waitFor('online', () => supervisor.status().state === 'online');
    await waitFor('the client sockets', () => front.carried() > 0);
    front.dropSilently();
    // Nothing notices a silent drop without a probe: still online a while later.
    await sleep(500);
    assert.equal(supervisor.status().state, 'online');

    const from = seen.length;
    clock.sleep(10 * 60_000);
    await waitFor('offline after the wake-up check', () => seen.slice(from).some((s) => s.state === 'offline'));
    assert.deepEqual(
      seen.slice(from, from + 2).map((s) => s.state),
      ['degraded', 'offline'],
    );
  } finally {
    await supervisor.close();
    await front.close();
    local.closeAllConnections();
    await new Promise<void>((r) => local.close(() => r()));
  }
});
