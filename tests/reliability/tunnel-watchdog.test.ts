import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from '../helpers/node-test.ts';
import { systemClock } from '../../server/support/clock.ts';
import { SeededRandom } from '../../server/support/random.ts';
import { TunnelSupervisor } from '../../server/tunnel/tunnel-supervisor.ts';
import type { ExposeOptions, SupervisorStatus, TunnelLink, TunnelProvider } from '../../server/tunnel/tunnel-types.ts';

/**
 * A laptop that slept, or a network that silently stopped carrying the
 * tunnel's sockets: nothing errors, the public URL just stops answering.
 * tunnel-quiet.test.ts produces that with the real client and the reference
 * server; here the provider is a stand-in (FakeSleepyProvider) that counts the
 * links it has open, to show the supervisor never holds two at once, and whose
 * links never report a drop; the health probe is real HTTP against a loopback
 * server playing the public URL.
 */
class FakeSleepyProvider implements TunnelProvider {
  open = 0;
  maxOpen = 0;
  exposed: string[] = [];
  async expose(o: ExposeOptions): Promise<TunnelLink> {
    this.exposed.push(o.subdomain);
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    let closed = false;
    return {
      url: `http://${o.subdomain}.localhost`,
      subdomain: o.subdomain,
      onDrop: () => undefined,
      socketCount: () => (closed ? 0 : 1),
      close: async () => {
        if (!closed) this.open--;
        closed = true;
      },
    };
  }
}

test('the probe notices a public URL that stopped answering, and the supervisor replaces the link (never two at once)', async () => {
  let healthy = true;
  let probes = 0;
  const publicSide = createServer((req, res) => {
    probes++;
    assert.equal(req.headers['bypass-tunnel-reminder'], '1');
    assert.equal(req.headers.host, 'sleepyname1.localhost');
    if (healthy && req.url === '/healthz') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, data: { status: 'ok' } }));
    } else {
      res.statusCode = 504;
      res.end('Gateway timeout');
    }
  });
  await new Promise<void>((r) => publicSide.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(publicSide.address() as AddressInfo).port}`;

  const provider = new FakeSleepyProvider();
  const supervisor = new TunnelSupervisor({
    provider,
    timings: {
      openTimeoutMs: 10_000,
      probeIntervalMs: 20,
      probeTimeoutMs: 1000,
      probeFailures: 2,
      backoffMinMs: 10,
      backoffMaxMs: 40,
    },
    probeOrigin: origin,
    clock: systemClock,
    random: new SeededRandom(1),
    onError: (e) => assert.fail(String(e)),
  });
  const seen: SupervisorStatus[] = [];
  supervisor.subscribe((s) => seen.push(s));
  const until = async (what: string, ok: () => boolean): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  try {
    await supervisor.expose({ host: 'http://tunnel.invalid', subdomain: 'sleepyname1', localPort: 1 });
    await until('online', () => supervisor.status().state === 'online');
    const probesOnline = probes;
    await until('a periodic probe', () => probes > probesOnline);

    healthy = false;
    // The supervisor reconnects within milliseconds, so the drop is read from the recorded statuses,
    // not from whatever state a poll happens to catch.
    const fromIndex = seen.length;
    const firstDrop = () => seen.slice(fromIndex).find((s) => s.state === 'offline');
    await until('offline', () => firstDrop() !== undefined);
    assert.match(firstDrop()!.lastError!, /answered HTTP 504 instead of this engine's health check/);
    assert.equal(firstDrop()!.url, null);

    healthy = true;
    await until('online again', () => supervisor.status().state === 'online' && provider.exposed.length >= 2);
    assert.equal(provider.maxOpen, 1, 'the old link is closed before a new one opens');
    assert.equal(provider.open, 1);
    assert.deepEqual([...new Set(provider.exposed)], ['sleepyname1'], 'the same subdomain is asked for again');
    const states = seen.map((s) => s.state).join(' ');
    assert.match(states, /connecting online .*offline .*connecting .*online/);
  } finally {
    await supervisor.close();
    await new Promise<void>((r) => publicSide.close(() => r()));
  }
  assert.equal(provider.open, 0);
  assert.equal(supervisor.status().state, 'disabled');
});

test('a public URL that never passes the first probe: the opening ends at its time limit, naming the last probe', async () => {
  // Every probe fails at once, so the time limit lands in the wait between probes: the wait ends
  // early and the opening fails with the limit's reason, not with the wait's own abort error.
  const publicSide = createServer((_req, res) => {
    res.statusCode = 504;
    res.end('Gateway timeout');
  });
  await new Promise<void>((r) => publicSide.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(publicSide.address() as AddressInfo).port}`;
  const provider = new FakeSleepyProvider();
  const supervisor = new TunnelSupervisor({
    provider,
    timings: {
      openTimeoutMs: 500,
      probeIntervalMs: 20,
      probeTimeoutMs: 1000,
      probeFailures: 2,
      backoffMinMs: 60_000,
      backoffMaxMs: 60_000,
    },
    probeOrigin: origin,
    clock: systemClock,
    random: new SeededRandom(1),
    onError: (e) => assert.fail(String(e)),
  });
  const seen: SupervisorStatus[] = [];
  supervisor.subscribe((s) => seen.push(s));
  try {
    await supervisor.expose({ host: 'http://tunnel.invalid', subdomain: 'sleepyname2', localPort: 1 });
    const deadline = Date.now() + 20_000;
    while (!seen.some((s) => s.state === 'offline')) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the opening to fail');
      await new Promise((r) => setTimeout(r, 10));
    }
    const failed = seen.find((s) => s.state === 'offline')!;
    // The probe after the wait runs on the aborted signal, so it reports the limit too.
    assert.equal(
      failed.lastError,
      'The tunnel did not open within 500 ms. Last probe: The public URL http://sleepyname2.localhost did not answer: The tunnel did not open within 500 ms..',
    );
    assert.equal(failed.url, null);
    assert.equal(provider.open, 0, 'the link that never passed its probe is closed');
  } finally {
    await supervisor.close();
    await new Promise<void>((r) => publicSide.close(() => r()));
  }
});
