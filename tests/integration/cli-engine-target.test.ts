import assert from 'node:assert/strict';
import { readFile, rm, stat } from 'node:fs/promises';
import { createServer, request, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { SecretInput } from '../../server/cli/cli-output.ts';
import { tail } from '../../server/cli/commands/tail.ts';
import { main } from '../../server/cli/main.ts';
import { formatDateTime } from '../../server/cli/render.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface Run {
  code: number;
  out: string;
  err: string;
}

/** main() in this process, as bin/hookscope runs it, with exactly this environment (no HOOKSCOPE_* of ours). */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: SecretInput): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { NO_COLOR: '1', ...env },
    isTTY: false,
    ...(stdin ? { stdin: () => stdin } : {}),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const piped = (text: string): SecretInput => Readable.from([Buffer.from(text)]);

/** A terminal as readline sees one: raw mode is recorded, keystrokes are what the test wrote. */
function terminal(keys: string): { input: SecretInput; rawModes: boolean[] } {
  const rawModes: boolean[] = [];
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (mode: boolean) => rawModes.push(mode) });
  input.write(keys);
  return { input, rawModes };
}

async function httpServer(listener: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A reverse proxy in front of an engine, as a team server has: `down` makes it answer 502 (counted in
 * `refused`), `drop()` ends the streams in flight, as a proxy that lost its upstream does.
 */
async function engineProxy(upstream: () => string) {
  const streams = new Set<ServerResponse>();
  const state = { down: false, refused: 0 };
  const server = await httpServer((req, res) => {
    if (state.down) {
      state.refused += 1;
      return void res.writeHead(502).end('Bad Gateway');
    }
    const forwarded = request(`${upstream()}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      streams.add(res);
      res.on('close', () => streams.delete(res));
      up.pipe(res);
    });
    req.pipe(forwarded);
  });
  return {
    ...server,
    state,
    drop: () => {
      for (const s of streams) s.destroy();
    },
  };
}

/** tail's lines as the CLI would print them, kept for the test. */
function tailIo(): { out: string[]; err: string[]; io: Parameters<typeof tail>[1] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: { NO_COLOR: '1' }, isTTY: false },
  };
}

const signInLink = async (t: TestEngine, token?: string): Promise<{ code: string; url: string }> => {
  const r = await t.api('POST', '/api/session/codes', { token });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.data;
};

const endpointNames = (r: Run): string[] => {
  assert.equal(r.code, 0, r.err);
  return (JSON.parse(r.out).endpoints as { name: string }[]).map((e) => e.name).sort();
};

async function storedLogins(
  dataDir: string,
): Promise<Record<string, { token: string; accountId: string; account: string; expiresAt: string }>> {
  return JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')).logins;
}

describe('the CLI against an engine named by URL (--engine, --token, login, logout)', () => {
  let t: TestEngine;
  let other: TestEngine;
  /** The laptop's own data directory: no engine runs for it, so discovery cannot be what works. */
  let laptop: string;
  before(async () => {
    t = await startTestEngine();
    other = await startTestEngine();
    laptop = await makeTempDir();
    await t.endpoint({ name: 'remote-one', validationType: 'none' });
    await other.endpoint({ name: 'other-engine', validationType: 'none' });
  });
  after(async () => {
    await t.stop();
    await other.stop();
    await rm(laptop, { recursive: true, force: true });
  });

  test('--engine and --token from another data directory: the command runs on that engine', async () => {
    const r = await cli(['endpoints', '--engine', t.engine.apiUrl, '--token', t.token, '--data-dir', laptop, '--json']);
    assert.deepEqual(endpointNames(r), ['remote-one']);
    // Without them the laptop's data directory has no engine.
    const local = await cli(['endpoints', '--data-dir', laptop]);
    assert.equal(local.code, 1);
    assert.match(local.err, /^hookscope: No Hookscope engine is running for /);
  });

  test('HOOKSCOPE_ENGINE_URL and HOOKSCOPE_TOKEN do the same; the flags win over them', async () => {
    const env = { HOOKSCOPE_ENGINE_URL: t.engine.apiUrl, HOOKSCOPE_TOKEN: t.token, HOOKSCOPE_DATA_DIR: laptop };
    assert.deepEqual(endpointNames(await cli(['endpoints', '--json'], env)), ['remote-one']);
    const flags = ['endpoints', '--json', '--engine', other.engine.apiUrl, '--token', other.token];
    assert.deepEqual(endpointNames(await cli(flags, env)), ['other-engine']);
  });

  test('login with the link from /api/session/codes keeps the token (0600, one entry per engine); commands then need no --token', async () => {
    const dir = await makeTempDir();
    try {
      const link = await signInLink(t);
      const r = await cli(['login', `${t.engine.apiUrl}/`, '--code', link.url, '--data-dir', dir]);
      assert.equal(r.code, 0, r.err);
      const path = join(dir, 'credentials.json');
      const logins = await storedLogins(dir);
      assert.deepEqual(Object.keys(logins), [t.engine.apiUrl]);
      const kept = logins[t.engine.apiUrl]!;
      assert.equal(
        r.out,
        `Signed in to ${t.engine.apiUrl} as "local" (${kept.accountId}).\n` +
          `The token is kept in ${path} until ${formatDateTime(kept.expiresAt)}; ` +
          `commands use it with --engine ${t.engine.apiUrl}.`,
      );
      assert.ok(!r.out.includes(kept.token) && !r.err.includes(kept.token), 'the token is never printed');
      assert.equal((await stat(path)).mode & 0o777, 0o600);

      assert.deepEqual(
        endpointNames(await cli(['endpoints', '--json', '--engine', t.engine.apiUrl, '--data-dir', dir])),
        ['remote-one'],
      );
      // Through the variable too, and the URL written with a trailing slash is the same engine.
      const env = { HOOKSCOPE_ENGINE_URL: `${t.engine.apiUrl}/`, HOOKSCOPE_DATA_DIR: dir };
      assert.deepEqual(endpointNames(await cli(['endpoints', '--json'], env)), ['remote-one']);

      // The code alone, piped on stdin, for a second engine, as another account: a second entry.
      const bob = await signInLink(other, await other.engine.issueToken('bob'));
      const second = await cli(['login', other.engine.apiUrl, '--data-dir', dir, '--json'], {}, piped(`${bob.code}\n`));
      assert.equal(second.code, 0, second.err);
      const shown = JSON.parse(second.out);
      assert.deepEqual(Object.keys(shown).sort(), ['account', 'accountId', 'credentials', 'engine', 'expiresAt']);
      assert.equal(shown.account, 'bob');
      assert.equal(shown.credentials, path);
      // Signing in again to the first engine replaces its entry.
      const again = await cli(['login', t.engine.apiUrl, '--code', (await signInLink(t)).url, '--data-dir', dir]);
      assert.equal(again.code, 0, again.err);
      const both = await storedLogins(dir);
      assert.deepEqual(Object.keys(both).sort(), [other.engine.apiUrl, t.engine.apiUrl].sort());
      assert.notEqual(both[t.engine.apiUrl]!.token, kept.token);
      assert.equal(both[other.engine.apiUrl]!.account, 'bob');
      assert.equal((await stat(path)).mode & 0o777, 0o600);
      const asBob = await cli(['endpoints', '--json', '--engine', other.engine.apiUrl, '--data-dir', dir]);
      assert.deepEqual(endpointNames(asBob), [], "bob's endpoints: none");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('at a terminal, login prompts on stderr and reads the pasted link without echoing it', async () => {
    const dir = await makeTempDir();
    try {
      const link = await signInLink(t);
      const { input, rawModes } = terminal(`${link.url}\r`);
      const r = await cli(['login', t.engine.apiUrl, '--data-dir', dir], {}, input);
      assert.equal(r.code, 0, r.err);
      assert.equal(
        r.err,
        'Paste the sign-in link (or its code) that `hookscope open --print` printed on the server, ' +
          'then press Enter (it is not shown):',
      );
      assert.deepEqual(rawModes, [true, false]);
      assert.ok(!r.out.includes(link.code));
      assert.deepEqual(Object.keys(await storedLogins(dir)), [t.engine.apiUrl]);
      const none = await cli(['login', t.engine.apiUrl, '--data-dir', dir]);
      assert.deepEqual(none, {
        code: 2,
        out: '',
        err: 'hookscope: --code is required here (no standard input to read it from).',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('logout forgets the token, says whether there was one, and the engine then asks for a login', async () => {
    const dir = await makeTempDir();
    try {
      assert.equal(
        (await cli(['login', t.engine.apiUrl, '--code', (await signInLink(t)).code, '--data-dir', dir])).code,
        0,
      );
      const path = join(dir, 'credentials.json');
      const out = await cli(['logout', `${t.engine.apiUrl}/`, '--data-dir', dir]);
      assert.deepEqual(out, {
        code: 0,
        out: `Forgot the token for ${t.engine.apiUrl} (removed from ${path}).`,
        err: '',
      });
      assert.deepEqual(await storedLogins(dir), {});
      assert.equal((await stat(path)).mode & 0o777, 0o600);
      const twice = await cli(['logout', t.engine.apiUrl, '--data-dir', dir]);
      assert.deepEqual(twice, {
        code: 0,
        out: `There was no token stored for ${t.engine.apiUrl} in ${path}; nothing changed.`,
        err: '',
      });
      const after = await cli(['endpoints', '--engine', t.engine.apiUrl, '--data-dir', dir]);
      assert.deepEqual(after, {
        code: 1,
        out: '',
        err:
          `hookscope: No token for ${t.engine.apiUrl}: run \`hookscope login ${t.engine.apiUrl}\` first, ` +
          'or pass --token (or set HOOKSCOPE_TOKEN).',
      });
      // Without a URL: the only engine with a stored token.
      assert.equal(
        (await cli(['login', t.engine.apiUrl, '--code', (await signInLink(t)).code, '--data-dir', dir])).code,
        0,
      );
      assert.equal(
        (await cli(['logout', '--data-dir', dir])).out,
        `Forgot the token for ${t.engine.apiUrl} (removed from ${path}).`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('--user with --engine (or a token) is refused: the token names the account', async () => {
    const r = await cli([
      'endpoints',
      '--engine',
      t.engine.apiUrl,
      '--token',
      t.token,
      '--user',
      'bob',
      '--data-dir',
      laptop,
    ]);
    assert.deepEqual(r, {
      code: 2,
      out: '',
      err:
        'hookscope: --user cannot be used with --engine: the token names the account. To act as another account, ' +
        'sign in with a link minted for it (`hookscope open --print --user <name>` on the server).',
    });
    const env = await cli(['endpoints', '--user', 'bob', '--data-dir', laptop], { HOOKSCOPE_TOKEN: t.token });
    assert.equal(env.code, 2);
    assert.match(env.err, /^hookscope: --user cannot be used with HOOKSCOPE_TOKEN: the token names the account\./);
  });

  test('a URL that is not http(s) or does not parse: exit 2 naming the flag or variable', async () => {
    for (const [args, env, named, value] of [
      [['--engine', 'ftp://hooks.example.com'], {}, '--engine', 'ftp://hooks.example.com'],
      [['--engine', 'hooks.example.com'], {}, '--engine', 'hooks.example.com'],
      [[], { HOOKSCOPE_ENGINE_URL: 'http://' }, 'HOOKSCOPE_ENGINE_URL', 'http://'],
    ] as const) {
      const r = await cli(['endpoints', ...args, '--token', t.token, '--data-dir', laptop], env);
      assert.deepEqual(r, {
        code: 2,
        out: '',
        err: `hookscope: ${named} must be an absolute http:// or https:// URL such as https://hooks.example.com; got "${value}".`,
      });
    }
    const login = await cli(['login', 'javascript:alert(1)', '--code', 'x'.repeat(43), '--data-dir', laptop]);
    assert.equal(login.code, 2);
    assert.equal(
      login.err,
      'hookscope: The engine URL must be an absolute http:// or https:// URL such as https://hooks.example.com; got "javascript:alert(1)".',
    );
  });

  test('an engine that does not answer (refused, unknown host): one sentence naming the URL', async () => {
    const closed = await closedPort();
    try {
      const r = await cli(['endpoints', '--engine', closed.url, '--token', t.token, '--data-dir', laptop]);
      assert.deepEqual(r, {
        code: 1,
        out: '',
        err: `hookscope: The engine at ${closed.url} does not answer (ECONNREFUSED): check the URL and that the server is running.`,
      });
    } finally {
      await closed.release();
    }
    const dns = await cli(['login', 'http://no-such-host.invalid', '--code', 'x'.repeat(43), '--data-dir', laptop]);
    assert.deepEqual(dns, {
      code: 1,
      out: '',
      err: 'hookscope: The engine at http://no-such-host.invalid does not answer (ENOTFOUND): check the URL and that the server is running.',
    });
  });

  test('a reverse proxy answering 502 for an engine that is down: it does not answer', async () => {
    const proxy = await httpServer((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('Bad Gateway'),
    );
    try {
      assert.deepEqual(await cli(['endpoints', '--engine', proxy.url, '--token', t.token, '--data-dir', laptop]), {
        code: 1,
        out: '',
        err: `hookscope: The engine at ${proxy.url} does not answer (HTTP 502): check the URL and that the server is running.`,
      });
    } finally {
      await proxy.close();
    }
  });

  test('tail --engine waits while the proxy in front answers 502 and the stream drops, then goes on', async () => {
    const proxy = await engineProxy(() => t.engine.apiUrl);
    const endpoint = await t.endpoint({ name: 'tailed', validationType: 'none' });
    const { out, err, io } = tailIo();
    const stop = new AbortController();
    const tailing = tail({ engine: proxy.url, token: t.token, dataDir: laptop, endpoint, json: true }, io, stop.signal);
    // Awaited after the cleanup below; a failed first connection ends the wait at once, not as unhandled.
    let failed: Error | undefined;
    tailing.catch((e: unknown) => (failed = e instanceof Error ? e : new Error(String(e))));
    try {
      await waitFor('tail to connect', () => {
        if (failed !== undefined) throw failed;
        return err.some((l) => l.startsWith('Tailing deliveries from'));
      });
      await t.deliver(`/webhook/${endpoint}/first`);
      await waitFor('the first delivery', () => out.length === 1);
      proxy.state.down = true;
      proxy.drop();
      await waitFor('the drop to be said', () => err.includes('The event stream ended; reconnecting...'));
      // Reconnecting asks /api/version first: the 502 is waited out, not fatal.
      await waitFor('two refused reconnections', () => proxy.state.refused >= 2);
      proxy.state.down = false;
      await waitFor('the reconnection', () => err.includes(`Reconnected to ${proxy.url}.`));
      await t.deliver(`/webhook/${endpoint}/second`);
      await waitFor('the second delivery', () => out.length === 2);
      assert.deepEqual(
        out.map((l) => JSON.parse(l).path),
        ['/first', '/second'],
      );
    } finally {
      stop.abort();
      await proxy.close();
    }
    assert.equal(await tailing, 0);
  });

  test('tail --engine across a restart of an embedded engine shows what the new run published before it reconnected', async () => {
    // The engine's own data directory, kept across the restart; the proxy in front is the URL the laptop knows.
    const dataDir = await makeTempDir();
    let engine = await startTestEngine({}, {}, dataDir);
    const proxy = await engineProxy(() => engine.engine.apiUrl);
    const { out, err, io } = tailIo();
    const stop = new AbortController();
    let tailing: Promise<number> | undefined;
    try {
      const eventIds = async (): Promise<string> =>
        ((await (await fetch(`${proxy.url}/api/version`)).json()) as { data: { events: string } }).data.events;
      const before = await eventIds();
      const endpoint = await engine.endpoint({ name: 'restarted', validationType: 'none' });
      tailing = tail(
        { engine: proxy.url, token: engine.token, dataDir: laptop, endpoint, json: true },
        io,
        stop.signal,
      );
      let failed: Error | undefined;
      tailing.catch((e: unknown) => (failed = e instanceof Error ? e : new Error(String(e))));
      await waitFor('tail to connect', () => {
        if (failed !== undefined) throw failed;
        return err.some((l) => l.startsWith('Tailing deliveries from'));
      });
      // Enough events in the first run that its last id is past any the new run gives before tail is back.
      for (const path of ['/a', '/b', '/c', '/d']) await engine.deliver(`/webhook/${endpoint}${path}`);
      await waitFor("the first run's deliveries", () => out.length === 4);
      proxy.state.down = true;
      proxy.drop();
      await engine.stop();
      engine = await startTestEngine({}, {}, dataDir);
      // Published by the new run while the laptop cannot reach it: its ids start again at 1.
      await engine.deliver(`/webhook/${endpoint}/while-away`);
      proxy.state.down = false;
      await waitFor('the reconnection', () => err.includes(`Reconnected to ${proxy.url}.`));
      await waitFor('the delivery made while away', () => out.length === 5);
      await engine.deliver(`/webhook/${endpoint}/after`);
      await waitFor('the next delivery', () => out.length === 6);
      assert.deepEqual(
        out.map((l) => JSON.parse(l).path),
        ['/a', '/b', '/c', '/d', '/while-away', '/after'],
      );
      assert.notEqual(await eventIds(), before);
    } finally {
      stop.abort();
      await proxy.close();
      await engine.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    assert.equal(await tailing, 0);
  });

  test('something that answers but is not a Hookscope engine: said, naming the URL', async () => {
    const servers = [
      await httpServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>')),
      await httpServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"hello":"world"}}'),
      ),
    ];
    try {
      for (const s of servers) {
        const r = await cli(['endpoints', '--engine', s.url, '--token', t.token, '--data-dir', laptop]);
        assert.deepEqual(r, {
          code: 1,
          out: '',
          err: `hookscope: ${s.url} answers, but not as a Hookscope engine (no valid ${s.url}/api/version): check the URL.`,
        });
      }
    } finally {
      for (const s of servers) await s.close();
    }
  });

  test('an engine of another API version: both versions said, before any token is sent', async () => {
    let sawToken = false;
    const s = await httpServer((req, res) => {
      if (req.headers.authorization) sawToken = true;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ success: true, data: { name: 'hookscope', version: '9.0.0', node: 'v24.0.0', api: '2' } }),
      );
    });
    try {
      for (const args of [
        ['endpoints', '--engine', s.url, '--token', t.token],
        ['login', s.url, '--code', 'x'.repeat(43)],
      ]) {
        const r = await cli([...args, '--data-dir', laptop]);
        assert.deepEqual(r, {
          code: 1,
          out: '',
          err:
            `hookscope: The engine at ${s.url} speaks API version 2 (Hookscope 9.0.0), and this hookscope speaks ` +
            "API version 1: use a hookscope of the engine's version.",
        });
      }
      assert.equal(sawToken, false);
    } finally {
      await s.close();
    }
  });

  test('an invalid token: say to run hookscope login again', async () => {
    const r = await cli(['endpoints', '--engine', t.engine.apiUrl, '--token', other.token, '--data-dir', laptop]);
    assert.deepEqual(r, {
      code: 1,
      out: '',
      err: `hookscope: The token for ${t.engine.apiUrl} is not valid there: run \`hookscope login ${t.engine.apiUrl}\` again.`,
    });
  });

  test('login with a used, unknown or unreadable code: one sentence, nothing stored', async () => {
    const dir = await makeTempDir();
    try {
      const { code } = await signInLink(t);
      assert.equal((await cli(['login', t.engine.apiUrl, '--code', code, '--data-dir', dir])).code, 0);
      await rm(join(dir, 'credentials.json'));
      const spent =
        `hookscope: This sign-in code is unknown to ${t.engine.apiUrl}, expired or already used: ` +
        'run `hookscope open --print` on the server for a new one (it works once, for 10 minutes).';
      assert.deepEqual(await cli(['login', t.engine.apiUrl, '--code', code, '--data-dir', dir]), {
        code: 1,
        out: '',
        err: spent,
      });
      assert.deepEqual(await cli(['login', t.engine.apiUrl, '--code', 'y'.repeat(43), '--data-dir', dir]), {
        code: 1,
        out: '',
        err: spent,
      });
      const garbage = await cli(['login', t.engine.apiUrl, '--data-dir', dir], {}, piped('not a code\n'));
      assert.deepEqual(garbage, {
        code: 2,
        out: '',
        err:
          'hookscope: That is neither a sign-in link nor a sign-in code: paste the link `hookscope open --print` ' +
          'printed on the server, or its code.',
      });
      await assert.rejects(stat(join(dir, 'credentials.json')), { code: 'ENOENT' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('an expired token from hookscope login', () => {
  const clock = new ManualClock(Date.parse('2026-11-27T09:00:00Z'));
  let t: TestEngine;
  let dir: string;
  before(async () => {
    t = await startTestEngine({ tokenTtlMs: 3_600_000 }, { clock });
    dir = await makeTempDir();
  });
  after(async () => {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('works until its lifetime ends, then says to run hookscope login again', async () => {
    const { code } = await (await t.api('POST', '/api/session/codes')).body.data;
    assert.equal((await cli(['login', t.engine.apiUrl, '--code', code, '--data-dir', dir])).code, 0);
    assert.equal((await cli(['endpoints', '--engine', t.engine.apiUrl, '--data-dir', dir])).code, 0);
    clock.advance(3_600_000 + 1000);
    assert.deepEqual(await cli(['endpoints', '--engine', t.engine.apiUrl, '--data-dir', dir]), {
      code: 1,
      out: '',
      err: `hookscope: The token for ${t.engine.apiUrl} has expired: run \`hookscope login ${t.engine.apiUrl}\` again.`,
    });
  });
});

describe('the CLI against a team server on PostgreSQL', () => {
  after(stopTestPostgres);

  test('login with a code from open --print on the server, then a command from the laptop', async () => {
    const db = await freshDatabase();
    const laptop = await makeTempDir();
    let t: TestEngine | undefined;
    try {
      t = await startTestEngine({ databaseUrl: db.url });
      await t.endpoint({ name: 'team-endpoint', validationType: 'none' });
      // `hookscope open --print` run on the server, through its own data directory.
      const open = await cli(['open', '--print', '--data-dir', t.dataDir]);
      assert.equal(open.code, 0, open.err);
      const login = await cli(['login', t.engine.apiUrl, '--code', open.out, '--data-dir', laptop]);
      assert.equal(login.code, 0, login.err);
      assert.match(login.out, new RegExp(`^Signed in to ${t.engine.apiUrl} as "local" `));
      const r = await cli(['endpoints', '--json'], {
        HOOKSCOPE_ENGINE_URL: t.engine.apiUrl,
        HOOKSCOPE_DATA_DIR: laptop,
      });
      assert.deepEqual(endpointNames(r), ['team-endpoint']);
    } finally {
      await t?.stop();
      await db.drop();
      await rm(laptop, { recursive: true, force: true });
    }
  });
});
