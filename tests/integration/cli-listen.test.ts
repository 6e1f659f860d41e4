import assert from 'node:assert/strict';
import { readFile, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { after, describe, SLOW_TEST_TIMEOUT_MS, test } from '../helpers/node-test.ts';
import { runCli } from '../helpers/cli-process.ts';
import { spawnCli, type LiveCli } from '../helpers/cli-spawn.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

// The compiled CLI as a real process (`npm run build:server` first), against a real engine on port 0,
// sending to a recording node:http target on port 0.

const stripe = new Stripe('sk_test_unused');
const STRIPE_SECRET = 'whsec_listen_test_secret';
const GITHUB_SECRET = 'listen-github-secret';

const dirs: string[] = [];
const live: LiveCli[] = [];
after(stopTestPostgres);
after(async () => {
  for (const l of live) if (l.child.exitCode === null) l.child.kill('SIGKILL');
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const listen = (dir: string, target: string, ...args: string[]): LiveCli => {
  const l = spawnCli(['listen', '--data-dir', dir, '--forward-to', target, ...args]);
  live.push(l);
  return l;
};
const started = (l: LiveCli) => l.waitFor(/^Forwarding deliveries of .* to http:\/\/127\.0\.0\.1:\d+.*$/m, 'stderr');
const stopped = async (l: LiveCli): Promise<void> => {
  l.child.kill('SIGTERM');
  assert.equal(await l.exited, 0, l.stderr());
};
const lines = (l: LiveCli): string[] =>
  l
    .stdout()
    .split('\n')
    .filter((s) => s !== '');
const deliveredId = (r: { body: { data: { id: string } } }) => r.body.data.id;

describe('hookscope listen --forward-to', () => {
  test('sends each live delivery byte for byte with its sub-path and query, without hop-by-hop headers', async () => {
    const t = await startTestEngine();
    const target = await TargetServer.start();
    try {
      const ep = await t.endpoint({ name: 'listen', validationType: 'none' });
      const l = listen(t.dataDir, `${target.url}/hooks`);
      const [startLine] = await started(l);
      assert.equal(
        startLine,
        `Forwarding deliveries of all of the account's endpoints (now ${ep}) from ${t.engine.apiUrl.replace(/\/$/, '')} to ${target.url}/hooks; Ctrl+C to stop.`,
      );

      const json = Buffer.from('{"type":"invoice.paid","n":"é"}');
      const r = await rawRequest(`${t.engine.receiverUrl}/webhook/${ep}/orders/42?x=1&y=2&x=3`, {
        headers: [
          ['Content-Type', 'application/json'],
          ['X-Custom-Case', 'Kept'],
          ['Keep-Alive', 'timeout=5'],
          ['TE', 'trailers'],
          ['Proxy-Authorization', 'Basic c2VjcmV0'],
        ],
        body: json,
      });
      assert.equal(r.status, 200);
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i));
      const b = await t.deliver(`/webhook/${ep}/bin`, {
        body: binary,
        headers: { 'content-type': 'application/octet-stream' },
      });
      await target.waitForCount(2);

      const [first, second] = target.received;
      assert.equal(first!.method, 'POST');
      assert.equal(first!.url, '/hooks/orders/42?x=1&x=3&y=2');
      assert.deepEqual(first!.body, json);
      const names = first!.rawHeaders.map(([n]) => n.toLowerCase());
      for (const hop of ['keep-alive', 'te', 'proxy-authorization', 'transfer-encoding']) {
        assert.ok(!names.includes(hop), `${hop} was sent on: ${names.join(', ')}`);
      }
      // The listener's own connection (one per request), not the sender's.
      assert.equal(first!.headers.connection, 'close');
      assert.deepEqual(
        first!.rawHeaders.find(([n]) => n === 'X-Custom-Case'),
        ['X-Custom-Case', 'Kept'],
      );
      assert.equal(first!.headers.host, `127.0.0.1:${target.port}`);
      assert.equal(first!.headers['content-length'], String(json.length));
      assert.equal(second!.url, '/hooks/bin');
      assert.deepEqual(second!.body, binary);

      await l.waitFor(new RegExp(`/bin  200`));
      const out = lines(l);
      assert.equal(out.length, 2, l.stdout());
      assert.match(out[0]!, /^\d\d:\d\d:\d\d {2}invoice\.paid {2}POST \/orders\/42\?x=1&x=3&y=2 {2}200 {2}\d+ ms$/);
      assert.match(out[1]!, /^\d\d:\d\d:\d\d {2}- {2}POST \/bin {2}200 {2}\d+ ms$/);
      assert.ok(deliveredId(b).startsWith('log_'));
      await stopped(l);
    } finally {
      await target.close();
      await t.stop();
    }
  });

  test('--resign: the Stripe SDK and @octokit/webhooks-methods accept the fresh signatures; --json lines', async () => {
    const t = await startTestEngine();
    const target = await TargetServer.start((req) => {
      try {
        if (req.url.startsWith('/stripe')) {
          // A 10 s tolerance: the original signature (200 s old) fails it, a fresh one passes.
          stripe.webhooks.constructEvent(req.body, String(req.headers['stripe-signature']), STRIPE_SECRET, 10);
          return { status: 200, body: 'stripe ok' };
        }
        return { status: 204 };
      } catch (e) {
        return { status: 400, body: e instanceof Error ? e.message : 'refused' };
      }
    });
    try {
      const st = await t.endpoint({ name: 'stripe', validationType: 'stripe', webhookSecret: STRIPE_SECRET });
      const gh = await t.endpoint({ name: 'gh', validationType: 'github', webhookSecret: GITHUB_SECRET });
      const l = listen(t.dataDir, target.url, '--resign', '--json', '--endpoint', st, '--endpoint', gh);
      await l.waitFor(/"type":"listening"/);
      assert.deepEqual(JSON.parse(lines(l)[0]!), {
        type: 'listening',
        engine: t.engine.apiUrl.replace(/\/$/, ''),
        endpoints: [st, gh],
        all: false,
        target: target.url,
        resign: true,
      });

      const payload = '{"id":"evt_1","type":"checkout.session.completed"}';
      const stale = Math.floor(Date.now() / 1000) - 200;
      const original = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET, timestamp: stale });
      const s = await t.deliver(`/webhook/${st}/stripe`, {
        body: payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': original },
      });
      assert.equal(s.status, 200, JSON.stringify(s.body));
      const ghBody = '{"action":"opened","number":1}';
      const g = await t.deliver(`/webhook/${gh}`, {
        body: ghBody,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-hub-signature-256': await octokitSign(GITHUB_SECRET, ghBody),
        },
      });
      assert.equal(g.status, 200, JSON.stringify(g.body));
      await target.waitForCount(2);
      await l.waitFor(new RegExp(`"logId":"${deliveredId(g)}"`));
      await l.waitFor(new RegExp(`"logId":"${deliveredId(s)}"`));

      const toStripe = target.received.find((r) => r.url === '/stripe');
      const toGithub = target.received.find((r) => r.url === '/');
      assert.notEqual(toStripe!.headers['stripe-signature'], original);
      assert.equal(toStripe!.body.toString(), payload);
      assert.equal(
        await octokitVerify(GITHUB_SECRET, toGithub!.body.toString(), String(toGithub!.headers['x-hub-signature-256'])),
        true,
      );

      const reports = lines(l)
        .slice(1)
        .map((x) => JSON.parse(x));
      assert.equal(reports.length, 2, l.stdout());
      const stripeLine = reports.find((x) => x.logId === deliveredId(s));
      assert.deepEqual(Object.keys(stripeLine), [
        'type',
        'logId',
        'endpointId',
        'eventType',
        'method',
        'path',
        'query',
        'receivedAt',
        'catchUp',
        'url',
        'status',
        'durationMs',
        'attempt',
      ]);
      assert.equal(stripeLine.type, 'forwarded');
      assert.equal(stripeLine.status, 200, 'the target verified the fresh Stripe signature');
      assert.equal(stripeLine.eventType, 'checkout.session.completed');
      assert.equal(stripeLine.endpointId, st);
      assert.equal(stripeLine.path, '/stripe');
      assert.equal(stripeLine.url, `${target.url}/stripe`);
      assert.equal(stripeLine.catchUp, false);
      assert.equal(stripeLine.attempt, 1);
      assert.equal(typeof stripeLine.durationMs, 'number');
      const ghLine = reports.find((x) => x.logId === deliveredId(g));
      assert.equal(ghLine.status, 204);
      assert.equal(ghLine.eventType, 'pull_request.opened');
      await stopped(l);
    } finally {
      await target.close();
      await t.stop();
    }
  });

  test(
    'stopped while 20 deliveries arrive: the next run sends all 20, oldest first, then live ones, none twice',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const t = await startTestEngine();
      const target = await TargetServer.start();
      try {
        const ep = await t.endpoint({ name: 'away', validationType: 'none' });
        const before = deliveredId(await t.deliver(`/webhook/${ep}`, { body: 'before the first run' }));
        const first = listen(t.dataDir, target.url);
        await started(first);
        await stopped(first);

        const away: string[] = [];
        for (let n = 1; n <= 20; n++)
          away.push(deliveredId(await t.deliver(`/webhook/${ep}/n`, { body: `away ${n}` })));

        const second = listen(t.dataDir, target.url);
        await started(second);
        await target.waitForCount(20);
        const liveId = deliveredId(await t.deliver(`/webhook/${ep}/live`, { body: 'live' }));
        await target.waitForCount(21);
        await second.waitFor(/\/live {2}200/);

        assert.deepEqual(
          target.received.map((r) => r.body.toString()),
          [...away.map((_, i) => `away ${i + 1}`), 'live'],
          'a delivery made before the first run is not sent; the 20 in order, then the live one',
        );
        const out = lines(second);
        assert.equal(out.length, 21, second.stdout());
        for (const line of out.slice(0, 20)) assert.match(line, /POST \/n {2}200 {2}\d+ ms {2}\(caught up\)$/);
        assert.match(out[20]!, /POST \/live {2}200 {2}\d+ ms$/);
        await stopped(second);

        const statePath = join(t.dataDir, 'listen-state.json');
        assert.equal((await stat(statePath)).mode & 0o777, 0o600);
        assert.deepEqual(JSON.parse(await readFile(statePath, 'utf8')), {
          version: 1,
          engines: { local: { [ep]: liveId } },
        });
        assert.ok(before < away[0]!);
      } finally {
        await target.close();
        await t.stop();
      }
    },
  );

  test(
    'the engine restarts mid-stream (on a new port): nothing lost, nothing sent twice',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const dir = await makeTempDir('hookscope-cli-listen-');
      dirs.push(dir);
      let t: TestEngine = await startTestEngine({}, {}, dir);
      const target = await TargetServer.start();
      const ep = await t.endpoint({ name: 'restart', validationType: 'none' });
      const l = listen(dir, target.url);
      try {
        await started(l);
        for (const n of [1, 2, 3]) await t.deliver(`/webhook/${ep}`, { body: `run1 ${n}` });
        await target.waitForCount(3);
        await t.stop();
        await l.waitFor(/reconnecting|waiting/, 'stderr');
        t = await startTestEngine({}, {}, dir);
        // Sent before the listener is back: caught up, or replayed by the new run's event stream; once either way.
        for (const n of [1, 2, 3]) await t.deliver(`/webhook/${ep}`, { body: `run2 ${n}` });
        await l.waitFor(/Reconnected to http:\/\/127\.0\.0\.1:\d+/, 'stderr');
        await target.waitForCount(6);
        const last = deliveredId(await t.deliver(`/webhook/${ep}`, { body: 'run2 4' }));
        await target.waitForCount(7);
        await l.waitFor(/(?:^.* {2}200 {2}.*\n){7}/m);
        await stopped(l);
        assert.deepEqual(
          target.received.map((r) => r.body.toString()),
          ['run1 1', 'run1 2', 'run1 3', 'run2 1', 'run2 2', 'run2 3', 'run2 4'],
        );
        assert.equal(lines(l).length, 7, l.stdout());
        const state = JSON.parse(await readFile(join(dir, 'listen-state.json'), 'utf8'));
        assert.equal(state.engines.local[ep], last);
      } finally {
        await target.close();
        await t.stop();
      }
    },
  );

  test('a target that is down: retried with backoff and reported, then delivered; later ones wait behind it', async () => {
    const t = await startTestEngine();
    const target = await TargetServer.start();
    try {
      const ep = await t.endpoint({ name: 'down', validationType: 'none' });
      const l = listen(t.dataDir, target.url);
      await started(l);
      target.down = true;
      await t.deliver(`/webhook/${ep}/first`, { body: 'first' });
      await t.deliver(`/webhook/${ep}/second`, { body: 'second' });
      const [retry] = await l.waitFor(/^.*\/first.*attempt 1 failed.*$/m);
      assert.match(
        retry,
        /^\d\d:\d\d:\d\d {2}- {2}POST \/first {2}http:\/\/127\.0\.0\.1:\d+\/first could not be reached: the connection was reset\. {2}\(attempt 1 failed; retrying in 1 s\)$/,
      );
      assert.equal(target.received.length, 0);
      target.down = false;
      await target.waitForCount(2);
      await l.waitFor(/\/second {2}200/);
      assert.deepEqual(
        target.received.map((r) => r.url),
        ['/first', '/second'],
      );
      const out = lines(l);
      assert.equal(
        out.filter((x) => x.includes('/second')).length,
        1,
        'the second waited: never tried while the first failed',
      );
      assert.match(out.at(-2)!, /POST \/first {2}200/);
      await stopped(l);
    } finally {
      await target.close();
      await t.stop();
    }
  });

  test('usage errors: a --forward-to that is not an http(s) URL, an unknown --endpoint: one sentence, exit 2', async () => {
    const t = await startTestEngine();
    /** `hookscope listen <args>` on t's data directory: exit 2, exactly `stderr`, nothing on stdout. */
    const refused = async (args: string[], stderr: string): Promise<void> => {
      const r = await runCli(['listen', '--data-dir', t.dataDir, ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, stderr);
      assert.equal(r.stdout, '');
    };
    const target = ['--forward-to', 'http://127.0.0.1:9'];
    try {
      for (const bad of ['ftp://localhost:3000', 'localhost:3000', 'http://exa mple']) {
        await refused(
          ['--forward-to', bad],
          `error: option '--forward-to <url>' argument '${bad}' is invalid. It must be an absolute http:// or https:// URL.\n(run with --help for usage)\n`,
        );
      }
      await refused(
        [...target, '--endpoint', 'ep_nope'],
        `hookscope: --endpoint ep_nope: no such endpoint on ${t.engine.apiUrl.replace(/\/$/, '')} for this account (\`hookscope endpoints\` lists them).\n`,
      );
      await refused(
        [...target, '--since', '10m', '--no-catch-up'],
        'hookscope: --since chooses where the catch-up starts; it cannot be used with --no-catch-up.\n',
      );
      await refused(
        [...target, '--since', '10 minutes'],
        "error: option '--since <duration|logId>' argument '10 minutes' is invalid. It must be a duration such as 10m, 2h or 1d, or a log id (log_...).\n(run with --help for usage)\n",
      );
    } finally {
      await t.stop();
    }
  });
});

/**
 * A TCP front standing in for a team server's reverse proxy: every new
 * connection goes to the instance it points at now; an instance that stops
 * takes its connections down with it.
 */
async function switchableFront(port: number) {
  let backend = port;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(backend, '127.0.0.1');
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', end);
      s.on('close', () => {
        open.delete(s);
        end();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    switchTo: (p: number): void => {
      backend = p;
    },
    close: async (): Promise<void> => {
      for (const s of open) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('hookscope listen against a team server on PostgreSQL (--engine, --token)', () => {
  test(
    'deliveries through either instance are sent; when the first instance dies the listener reconnects through the front to the other, nothing lost or sent twice',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const database = await freshDatabase();
      const a = await startTestEngine({ databaseUrl: database.url });
      const b = await startTestEngine({ databaseUrl: database.url });
      const front = await switchableFront(Number(new URL(a.engine.apiUrl).port));
      const target = await TargetServer.start();
      const laptop = await makeTempDir('hookscope-cli-listen-laptop-');
      dirs.push(laptop);
      let aStopped = false;
      try {
        const ep = await a.endpoint({ name: 'team', validationType: 'none' });
        const l = listen(laptop, target.url, '--engine', front.url, '--token', a.token);
        const [startLine] = await started(l);
        assert.equal(
          startLine,
          `Forwarding deliveries of all of the account's endpoints (now ${ep}) from ${front.url} to ${target.url}; Ctrl+C to stop.`,
        );
        await a.deliver(`/webhook/${ep}`, { body: 'via a 1' });
        await target.waitForCount(1);
        await b.deliver(`/webhook/${ep}`, { body: 'via b 1' });
        await target.waitForCount(2);

        front.switchTo(Number(new URL(b.engine.apiUrl).port));
        await a.stop();
        aStopped = true;
        // While the listener finds its way back (through the front, now to b): caught up, or live; once.
        for (const n of [2, 3, 4]) await b.deliver(`/webhook/${ep}`, { body: `via b ${n}` });
        await l.waitFor(/Reconnected to http:\/\/127\.0\.0\.1:\d+/, 'stderr');
        const last = deliveredId(await b.deliver(`/webhook/${ep}`, { body: 'via b 5' }));
        await target.waitForCount(6);
        await l.waitFor(/(?:^.* {2}200 {2}.*\n){6}/m);
        await stopped(l);

        assert.deepEqual(
          target.received.map((r) => r.body.toString()),
          ['via a 1', 'via b 1', 'via b 2', 'via b 3', 'via b 4', 'via b 5'],
        );
        assert.equal(lines(l).length, 6, l.stdout());
        const state = JSON.parse(await readFile(join(laptop, 'listen-state.json'), 'utf8'));
        assert.deepEqual(state.engines, { [front.url]: { [ep]: last } });
      } finally {
        await target.close();
        await front.close();
        if (!aStopped) await a.stop();
        await b.stop();
        await database.drop();
      }
    },
  );
});
