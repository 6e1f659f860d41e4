import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfigFile, resolveConfig, DEFAULT_CONFIG } from '../../server/config/config.ts';
import { ManualClock } from '../../server/support/clock.ts';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { rawRequest } from '../helpers/raw-request.ts';
import { TargetServer } from '../helpers/target-server.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { startTunnelServer, type TunnelServer } from '../helpers/tunnel-server.ts';

/**
 * `GET`/`PATCH /api/settings` against a real engine: each change is saved to
 * config.json (atomically, the file's other keys kept) and applied to the
 * running engine, which the tests prove by its behaviour, not by reading the
 * settings back: the receiver's 429, retention's evictions, a call to the LLM,
 * the tunnel reconnecting to another server.
 */

/**
 * config.json and the tunnel are the embedded store's: with a database Settings saves there and the tunnel is
 * refused. Tests of them pin the embedded store under HOOKSCOPE_TEST_STORE=postgres too; the database's side is
 * tests/integration/shared-state.test.ts.
 */
const EMBEDDED = { databaseUrl: null };
const configPath = (t: TestEngine): string => join(t.dataDir, 'config.json');
const patch = (t: TestEngine, body: unknown, token?: string) => t.api('PATCH', '/api/settings', { body, token });

async function logCount(t: TestEngine): Promise<{ total: number; bodies: string[] }> {
  const r = await t.api('GET', '/api/webhooks/logs?limit=200');
  const ids: string[] = r.body.data.logs.map((l: { id: string }) => l.id);
  const bodies = await Promise.all(
    ids.map(async (id) => (await t.api('GET', `/api/webhooks/logs/${id}`)).body.data.body as string),
  );
  return { total: r.body.data.total, bodies };
}

describe('settings: read by any account, changed by the owner, applied live', () => {
  test('GET answers the running values, the ports and where each comes from; only the owner may PATCH', async () => {
    const t = await startTestEngine(EMBEDDED);
    try {
      const other = await t.engine.issueToken('someone-else');
      const mine = (await t.api('GET', '/api/settings')).body.data;
      assert.deepEqual(mine.tunnel, { host: 'https://localtunnel.me', subdomain: null });
      assert.deepEqual(mine.retention, { maxLogsPerAccount: 10_000, maxBodyBytesPerAccount: 512 * 1024 * 1024 });
      assert.deepEqual(mine.rateLimit, { perSecond: 1000, burst: 2000 });
      assert.equal(mine.llm, null);
      assert.deepEqual(mine.ports.api, {
        port: Number(new URL(t.engine.apiUrl).port),
        flag: '--api-port',
        env: 'HOOKSCOPE_API_PORT',
        configKey: 'apiPort',
      });
      assert.equal(mine.ports.receiver.port, Number(new URL(t.engine.receiverUrl).port));
      assert.deepEqual(mine.sources['rateLimit.perSecond'], { from: 'default', name: null });
      assert.equal(mine.canEdit, true);
      assert.equal(mine.configFile, configPath(t));

      const theirs = await t.api('GET', '/api/settings', { token: other });
      assert.equal(theirs.status, 200);
      assert.deepEqual({ ...theirs.body.data, canEdit: true }, mine);
      assert.equal(theirs.body.data.canEdit, false);

      const refused = await patch(t, { rateLimit: { perSecond: 1 } }, other);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'FORBIDDEN');
      assert.match(refused.body.error.message, /Only the owner account/);
      await assert.rejects(stat(configPath(t)), { code: 'ENOENT' });
      assert.equal((await t.api('GET', '/api/settings')).body.data.rateLimit.perSecond, 1000);
    } finally {
      await t.stop();
    }
  });

  test('a lower rate limit: the receiver answers 429 at the new limit at once; 0 turns it off', async () => {
    // A clock that never moves: no token comes back between deliveries.
    const t = await startTestEngine({}, { clock: new ManualClock(1_700_000_000_000) });
    try {
      const ep = await t.endpoint({ name: 'limited', validationType: 'none' });
      assert.equal((await t.deliver(`/webhook/${ep}`, { body: 'before' })).status, 200);
      const r = await patch(t, { rateLimit: { perSecond: 1, burst: 2 } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data.rateLimit, { perSecond: 1, burst: 2 });
      assert.deepEqual(r.body.data.sources['rateLimit.burst'], { from: 'file', name: 'receiver.rateLimit.burst' });

      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.deliver(`/webhook/${ep}`, { body: `after ${i}` })).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      const limited = await t.deliver(`/webhook/${ep}`, { body: 'again' });
      assert.equal(limited.headers.get('retry-after'), '1');
      assert.match(limited.body.error.message, /at most 1 deliveries per second \(bursts of 2\)/);

      assert.equal((await patch(t, { rateLimit: { perSecond: 0 } })).status, 200);
      assert.equal((await t.deliver(`/webhook/${ep}`, { body: 'unlimited' })).status, 200);
    } finally {
      await t.stop();
    }
  });

  test('lower retention: the next delivery evicts down to the new budgets (logs, then body bytes)', async () => {
    const t = await startTestEngine();
    try {
      const ep = await t.endpoint({ name: 'kept', validationType: 'none' });
      const body = (n: number): string => `${n}`.padStart(100, '.');
      for (let n = 1; n <= 5; n++) assert.equal((await t.deliver(`/webhook/${ep}`, { body: body(n) })).status, 200);
      assert.equal(
        (await patch(t, { retention: { maxLogsPerAccount: 3 } })).status,
        200,
        'saved; nothing is evicted until the next delivery',
      );
      assert.equal((await logCount(t)).total, 5);
      await t.deliver(`/webhook/${ep}`, { body: body(6) });
      assert.deepEqual(await logCount(t), { total: 3, bodies: [body(6), body(5), body(4)] });

      // 300 body bytes kept; a budget of 250 evicts the oldest until 90% of it (225) is left.
      assert.equal((await patch(t, { retention: { maxBodyBytesPerAccount: 250 } })).status, 200);
      await t.deliver(`/webhook/${ep}`, { body: body(7) });
      assert.deepEqual(await logCount(t), { total: 2, bodies: [body(7), body(6)] });
    } finally {
      await t.stop();
    }
  });

  test('the LLM URL and model: the next analysis calls the new server; null turns it off', async () => {
    const llm = await TargetServer.start(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ choices: [{ message: { content: 'The secret was rotated.' } }] }),
    }));
    const t = await startTestEngine(EMBEDDED);
    try {
      const ep = await t.endpoint({ name: 'signed', validationType: 'hmac_sha256', webhookSecret: 'a-long-secret' });
      const failed = await t.deliver(`/webhook/${ep}`, { body: '{}', headers: { 'x-webhook-signature': 'bad' } });
      const logId = failed.body.error.details.logId as string;
      const analyze = async () =>
        (await t.api('POST', `/api/webhooks/logs/${logId}/analyze`, { body: { refresh: true } })).body.data;
      assert.equal((await analyze()).engine, 'rules');

      const r = await patch(t, { llm: { url: `${llm.url}/v1`, model: 'tiny-model' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data.llm, { url: `${llm.url}/v1`, model: 'tiny-model', apiKeySet: false });
      const withLlm = await analyze();
      assert.equal(withLlm.engine, 'rules+llm');
      assert.equal(withLlm.explanation, 'The secret was rotated.');
      assert.equal(llm.received.length, 1);
      assert.equal(llm.received[0]!.url, '/v1/chat/completions');
      assert.equal(JSON.parse(llm.received[0]!.body.toString()).model, 'tiny-model');

      assert.equal((await patch(t, { llm: null })).status, 200);
      assert.equal((await analyze()).engine, 'rules');
      assert.equal(llm.received.length, 1);
      assert.deepEqual(JSON.parse(await readFile(configPath(t), 'utf8')), { remediation: { llm: null } });
    } finally {
      await t.stop();
      await llm.close();
    }
  });

  test('config.json keeps the keys it does not manage; it is replaced atomically (0600, no temp file left)', async () => {
    const dataDir = await makeTempDir();
    const theirs = {
      forward: { initialBackoffMs: '2s' },
      durability: { sync: 'interval' },
      receiver: { headersTimeoutMs: '12s', rateLimit: { burst: 50 } },
      remediation: { llm: { url: 'http://127.0.0.1:9/v1', model: 'old', apiKey: 'kept-key', timeoutMs: 900 } },
      tunnel: { enabled: false, probeIntervalMs: 0 },
    };
    await writeFile(join(dataDir, 'config.json'), JSON.stringify(theirs));
    const config = resolveConfig({
      dataDir,
      flags: { apiPort: 0, receiverPort: 0 },
      file: await loadConfigFile(dataDir),
    });
    const t = await startTestEngine(config, {}, dataDir);
    try {
      assert.deepEqual(t.engine.config.sources['rateLimit.burst'], { from: 'file', name: 'receiver.rateLimit.burst' });
      const before = (await t.api('GET', '/api/settings')).body.data;
      assert.deepEqual(before.sources['ports.api'], { from: 'flag', name: '--api-port' });
      assert.deepEqual(before.llm, { url: 'http://127.0.0.1:9/v1', model: 'old', apiKeySet: true });
      const inode = (await stat(join(dataDir, 'config.json'))).ino;

      const r = await patch(t, {
        rateLimit: { perSecond: 7 },
        retention: { maxLogsPerAccount: 42 },
        tunnel: { subdomain: 'mysubdomain' },
        llm: { url: 'http://127.0.0.1:9/v1', model: 'new' },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'config.json'), 'utf8')), {
        forward: { initialBackoffMs: '2s' },
        durability: { sync: 'interval' },
        receiver: { headersTimeoutMs: '12s', rateLimit: { burst: 50, perSecond: 7 } },
        remediation: { llm: { url: 'http://127.0.0.1:9/v1', model: 'new', apiKey: 'kept-key', timeoutMs: 900 } },
        tunnel: { enabled: false, probeIntervalMs: 0, subdomain: 'mysubdomain' },
        retention: { maxLogsPerAccount: 42 },
      });
      assert.equal(r.body.data.llm.apiKeySet, true, 'the key stays');
      const written = await stat(join(dataDir, 'config.json'));
      assert.equal(written.mode & 0o777, 0o600);
      assert.notEqual(written.ino, inode, 'a new file renamed over the old one, not the old one rewritten in place');
      assert.deepEqual(
        (await readdir(dataDir)).filter((f) => f.includes('config')),
        ['config.json'],
      );

      // What was saved is what the next start reads.
      const again = resolveConfig({ dataDir, file: await loadConfigFile(dataDir) });
      assert.deepEqual(again.receiver.rateLimit, { perSecond: 7, burst: 50 });
      assert.equal(again.retention.maxLogsPerAccount, 42);
      assert.equal(again.tunnel.subdomain, 'mysubdomain');
      assert.deepEqual(again.remediation.llm, {
        url: 'http://127.0.0.1:9/v1',
        model: 'new',
        apiKey: 'kept-key',
        timeoutMs: 900,
      });
    } finally {
      await t.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('a bad value is a 400 naming the field, and config.json stays byte for byte as it was', async () => {
    const t = await startTestEngine();
    try {
      const original =
        '{\n    "forward": { "maxBackoffMs": "30s" },\n    "retention": { "maxLogsPerAccount": 500 }\n}\n';
      await writeFile(configPath(t), original);
      const cases: [unknown, string][] = [
        [
          { retention: { maxLogsPerAccount: 0 } },
          'Invalid request body "retention.maxLogsPerAccount": must be a whole number of at least 1.',
        ],
        [
          { retention: { maxBodyBytesPerAccount: 'lots' } },
          'Invalid request body "retention.maxBodyBytesPerAccount": must be a whole number of at least 1.',
        ],
        [
          { tunnel: { host: 'not a url' } },
          'Invalid request body "tunnel.host": must be an absolute http:// or https:// URL.',
        ],
        [
          { tunnel: { host: 'ftp://example.com' } },
          'Invalid request body "tunnel.host": must be an absolute http:// or https:// URL.',
        ],
        [
          { tunnel: { subdomain: 'AB' } },
          'Invalid request body "tunnel.subdomain": must be 4-63 lowercase letters and digits.',
        ],
        [
          { rateLimit: { perSecond: -1 } },
          'Invalid request body "rateLimit.perSecond": must be a whole number of at least 0 (0 turns the limit off).',
        ],
        [
          { rateLimit: { burst: 1.5 } },
          'Invalid request body "rateLimit.burst": must be a whole number of at least 1.',
        ],
        [{ llm: { url: 'http://127.0.0.1:9' } }, 'Invalid request body "llm.model": must be a string.'],
        [
          { llm: { url: 'localhost:11434', model: 'm' } },
          'Invalid request body "llm.url": must be an absolute http:// or https:// URL.',
        ],
        [{ rateLimit: {} }, 'Invalid request body "rateLimit": Send at least one field of rateLimit.'],
        [{}, 'Invalid request body: Send at least one of tunnel, retention, rateLimit and llm.'],
      ];
      for (const [body, message] of cases) {
        const r = await patch(t, body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.body.error.code, 'VALIDATION_ERROR');
        assert.equal(r.body.error.message, message);
      }
      const unknown = await patch(t, { retention: { maxLogs: 5 } });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.error.message, /"retention": Unrecognized key: "maxLogs"/);
      assert.equal(await readFile(configPath(t), 'utf8'), original);
      assert.equal((await t.api('GET', '/api/settings')).body.data.retention.maxLogsPerAccount, 10_000);
    } finally {
      await t.stop();
    }
  });

  test('a config.json that is not JSON, or holds an error elsewhere, is a 409 and is never overwritten', async () => {
    const t = await startTestEngine(EMBEDDED);
    try {
      for (const [content, code, words] of [
        ['{ "retention": { "maxLogsPerAccount": 5 ', 'CONFIG_FILE_INVALID', /it is not valid JSON/],
        ['[1, 2]', 'CONFIG_FILE_INVALID', /it does not hold a JSON object/],
        ['{ "colour": "red" }', 'CONFIG_FILE_INVALID', /\(top level\): Unrecognized key: "colour"/],
        ['{ "durability": { "sync": "sometimes" } }', 'CONFIG_FILE_INVALID', /durability\.sync: /],
      ] as const) {
        await writeFile(configPath(t), content);
        const r = await patch(t, { rateLimit: { perSecond: 3 } });
        assert.equal(r.status, 409, content);
        assert.equal(r.body.error.code, code);
        assert.match(r.body.error.message, words);
        assert.ok(r.body.error.message.startsWith(`${configPath(t)} was not changed: `), r.body.error.message);
        assert.equal(await readFile(configPath(t), 'utf8'), content);
        assert.equal((await t.api('GET', '/api/settings')).body.data.rateLimit.perSecond, 1000);
      }
    } finally {
      await t.stop();
    }
  });

  test('a value a flag or variable sets: shown with its name; another value is 409, the same one a no-op', async () => {
    const dataDir = await makeTempDir();
    const config = resolveConfig({
      dataDir,
      flags: { apiPort: 0, receiverPort: 0, subdomain: 'fromflag1' },
      env: { HOOKSCOPE_RATE_LIMIT_PER_SECOND: '7', HOOKSCOPE_LLM_API_KEY: 'env-key' },
    });
    const t = await startTestEngine(config, {}, dataDir);
    try {
      const s = (await t.api('GET', '/api/settings')).body.data;
      assert.deepEqual(s.sources['rateLimit.perSecond'], { from: 'env', name: 'HOOKSCOPE_RATE_LIMIT_PER_SECOND' });
      assert.deepEqual(s.sources['tunnel.subdomain'], { from: 'flag', name: '--subdomain' });
      assert.deepEqual(s.sources['rateLimit.burst'], { from: 'default', name: null });

      const overridden = await patch(t, { rateLimit: { perSecond: 8, burst: 3 } });
      assert.equal(overridden.status, 409);
      assert.equal(overridden.body.error.code, 'SETTING_OVERRIDDEN');
      assert.equal(
        overridden.body.error.message,
        'rateLimit.perSecond is set by the environment variable HOOKSCOPE_RATE_LIMIT_PER_SECOND, which wins over config.json: change it there (and restart the engine) instead.',
      );
      const flagged = await patch(t, { tunnel: { subdomain: 'another1' } });
      assert.equal(flagged.status, 409);
      assert.match(flagged.body.error.message, /^tunnel\.subdomain is set by the flag --subdomain/);
      await assert.rejects(stat(join(dataDir, 'config.json')), { code: 'ENOENT' });

      const same = await patch(t, { rateLimit: { perSecond: 7, burst: 3 } });
      assert.equal(same.status, 200);
      assert.deepEqual(same.body.data.rateLimit, { perSecond: 7, burst: 3 });
      assert.deepEqual(JSON.parse(await readFile(join(dataDir, 'config.json'), 'utf8')), {
        receiver: { rateLimit: { burst: 3 } },
      });
      // The variable's key goes with an LLM set here, as it would at the next start.
      const llm = await patch(t, { llm: { url: 'http://127.0.0.1:9', model: 'm' } });
      assert.equal(llm.body.data.llm.apiKey, undefined);
      assert.equal(llm.body.data.llm.apiKeySet, true);
    } finally {
      await t.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('settings: the tunnel host and subdomain', () => {
  let a: TunnelServer;
  let b: TunnelServer;
  before(async () => {
    [a, b] = await Promise.all([startTunnelServer(), startTunnelServer()]);
  });
  after(async () => {
    await Promise.all([a.stop(), b.stop()]);
  });

  const waitOnline = async (t: TestEngine, host: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const s = (await t.api('GET', '/api/tunnel')).body.data;
      if (s.state === 'online' && s.host === host) return s;
      if (Date.now() > deadline) throw new Error(`tunnel not online at ${host}: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  test('changed while online: the tunnel reconnects to the new server with the new subdomain, and deliveries arrive through it', async () => {
    const t = await startTestEngine({
      ...EMBEDDED,
      // No probe: online means a socket reached the server (the servers' URLs do not resolve here).
      tunnel: { ...DEFAULT_CONFIG.tunnel, enabled: true, host: a.origin, probeIntervalMs: 0, backoffMinMs: 50 },
    });
    try {
      const first = await waitOnline(t, a.origin);
      const r = await patch(t, { tunnel: { host: b.origin, subdomain: 'settingsmoved1' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data.tunnel, { host: b.origin, subdomain: 'settingsmoved1' });
      const moved = await waitOnline(t, b.origin);
      assert.equal(moved.url, 'http://settingsmoved1.localhost');
      assert.notEqual(moved.url, first.url);

      const ep = await t.endpoint({ name: 'through b', validationType: 'none' });
      const through = await rawRequest(`${b.origin}/webhook/${ep}`, {
        method: 'POST',
        headers: [['Host', `settingsmoved1.localhost:${b.port}`]],
        body: 'via b',
      });
      assert.equal(through.status, 200, through.body.toString());
      assert.deepEqual(JSON.parse(await readFile(configPath(t), 'utf8')), {
        tunnel: { host: b.origin, subdomain: 'settingsmoved1' },
      });
    } finally {
      await t.stop();
    }
  });

  test('changed while off: nothing connects; the next start of the tunnel uses the new host', async () => {
    const t = await startTestEngine({
      ...EMBEDDED,
      tunnel: { ...DEFAULT_CONFIG.tunnel, host: a.origin, probeIntervalMs: 0, backoffMinMs: 50 },
    });
    try {
      assert.equal((await patch(t, { tunnel: { host: b.origin } })).status, 200);
      const off = (await t.api('GET', '/api/tunnel')).body.data;
      assert.equal(off.state, 'disabled');
      assert.equal(off.host, b.origin);
      assert.equal((await t.api('POST', '/api/tunnel', { body: { enabled: true } })).status, 200);
      await waitOnline(t, b.origin);
    } finally {
      await t.stop();
    }
  });
});
