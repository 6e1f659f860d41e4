import assert from 'node:assert/strict';
import { DEFAULT_CONFIG } from '../../server/config/config.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { freshDatabase, stopTestPostgres, type FreshDatabase } from '../helpers/postgres.ts';
import { startTestEngine, type TestEngine } from '../helpers/test-engine.ts';
import { waitFor } from '../helpers/wait-for.ts';

/**
 * Two engines on one PostgreSQL behave as one for sign-in codes and Settings
 * (issue 23, "Several instances"): a code issued on one signs in on the other,
 * once; a setting saved on one is in force on the other within its poll.
 */
after(stopTestPostgres);

/** Short, so that the test waits little; the engine's default is 1 s. */
const POLL_MS = 50;

async function withPair(
  fn: (a: TestEngine, b: TestEngine) => Promise<void>,
  overridesB: Parameters<typeof startTestEngine>[0] = {},
): Promise<void> {
  const database: FreshDatabase = await freshDatabase();
  const engines: TestEngine[] = [];
  try {
    engines.push(await startTestEngine({ databaseUrl: database.url, settingsPollMs: POLL_MS }));
    engines.push(await startTestEngine({ databaseUrl: database.url, settingsPollMs: POLL_MS, ...overridesB }));
    await fn(engines[0]!, engines[1]!);
  } finally {
    for (const e of engines) await e.stop();
    await database.drop();
  }
}

const redeemOn = (t: TestEngine, code: string) =>
  fetch(`${t.engine.apiUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });

const settingsOf = async (t: TestEngine) => (await t.api('GET', '/api/settings')).body.data;

describe('sign-in codes shared by instances', () => {
  test('a link `hookscope open --print` makes on A signs in on B, once; the API’s codes too', async () => {
    await withPair(async (a, b) => {
      const printed = await runCliInProcess(a.dataDir, ['open', '--print']);
      assert.equal(printed.code, 0, printed.err);
      const url = printed.out.trim();
      assert.match(url, new RegExp(`^${a.engine.apiUrl}/#/sign-in/[A-Za-z0-9_-]{43}$`));
      const code = url.slice(url.lastIndexOf('/') + 1);
      const first = await redeemOn(b, code);
      assert.equal(first.status, 200);
      assert.equal(((await first.json()) as { data: { account: { name: string } } }).data.account.name, 'local');
      assert.equal((await redeemOn(a, code)).status, 401);
      assert.equal((await redeemOn(b, code)).status, 401);

      const minted = await b.api('POST', '/api/session/codes');
      assert.equal(minted.status, 201);
      assert.equal((await redeemOn(a, minted.body.data.code)).status, 200);
      assert.equal((await redeemOn(b, minted.body.data.code)).status, 401);
    });
  });
});

describe('settings shared by instances', () => {
  test('retention saved on A is in force on B: B shows it and its next delivery evicts down to it', async () => {
    await withPair(async (a, b) => {
      const saved = await a.api('PATCH', '/api/settings', { body: { retention: { maxLogsPerAccount: 2 } } });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.data.retention.maxLogsPerAccount, 2);
      assert.match(saved.body.data.configFile, /^the settings table of PostgreSQL at postgres:\/\//);

      await waitFor('B to follow', async () => (await settingsOf(b)).retention.maxLogsPerAccount === 2);
      const seen = await settingsOf(b);
      assert.deepEqual(seen.sources['retention.maxLogsPerAccount'], {
        from: 'file',
        name: 'retention.maxLogsPerAccount',
      });
      const ep = await b.endpoint({ name: 'kept two', validationType: 'none' });
      for (const n of [1, 2, 3]) assert.equal((await b.deliver(`/webhook/${ep}`, { body: `d${n}` })).status, 200);
      const logs = (await b.api('GET', '/api/webhooks/logs')).body.data;
      assert.equal(logs.total, 2);
    });
  });

  test('the LLM saved on A is B’s too, and turned off on A it is off on B', async () => {
    await withPair(async (a, b) => {
      const llm = { url: 'http://127.0.0.1:9/v1', model: 'team-model' };
      assert.equal((await a.api('PATCH', '/api/settings', { body: { llm } })).status, 200);
      await waitFor('B to take the LLM', async () => (await settingsOf(b)).llm?.model === 'team-model');
      assert.deepEqual((await settingsOf(b)).llm, { ...llm, apiKeySet: false });
      assert.equal((await a.api('PATCH', '/api/settings', { body: { llm: null } })).status, 200);
      await waitFor('B to turn the LLM off', async () => (await settingsOf(b)).llm === null);
    });
  });

  test('an instance started after a save runs on the saved values from the start', async () => {
    const database = await freshDatabase();
    const engines: TestEngine[] = [];
    try {
      engines.push(await startTestEngine({ databaseUrl: database.url, settingsPollMs: POLL_MS }));
      const saved = await engines[0]!.api('PATCH', '/api/settings', {
        body: { rateLimit: { perSecond: 3, burst: 4 } },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      // A poll far beyond the test: only the read at start can have brought the values.
      engines.push(await startTestEngine({ databaseUrl: database.url, settingsPollMs: 3_600_000 }));
      assert.deepEqual((await settingsOf(engines[1]!)).rateLimit, { perSecond: 3, burst: 4 });
    } finally {
      for (const e of engines) await e.stop();
      await database.drop();
    }
  });

  test('a value a variable sets on B stays B’s; the rest of the save applies', async () => {
    await withPair(
      async (a, b) => {
        const saved = await a.api('PATCH', '/api/settings', {
          body: { rateLimit: { perSecond: 11 }, retention: { maxBodyBytesPerAccount: 5_000_000 } },
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        await waitFor('B to follow', async () => (await settingsOf(b)).retention.maxBodyBytesPerAccount === 5_000_000);
        const seen = await settingsOf(b);
        assert.equal(seen.rateLimit.perSecond, 7);
        assert.deepEqual(seen.sources['rateLimit.perSecond'], { from: 'env', name: 'HOOKSCOPE_RATE_LIMIT_PER_SECOND' });
      },
      {
        receiver: { ...DEFAULT_CONFIG.receiver, rateLimit: { perSecond: 7, burst: 2000 } },
        sources: { 'rateLimit.perSecond': { from: 'env', name: 'HOOKSCOPE_RATE_LIMIT_PER_SECOND' } },
      },
    );
  });

  test('the tunnel’s settings cannot change with a database: 409 naming the field, nothing saved', async () => {
    await withPair(async (a, b) => {
      const r = await a.api('PATCH', '/api/settings', {
        body: { tunnel: { subdomain: 'elsewhere' }, retention: { maxLogsPerAccount: 3 } },
      });
      assert.equal(r.status, 409);
      assert.deepEqual(r.body.error, {
        code: 'TUNNEL_UNAVAILABLE',
        message:
          'tunnel.subdomain cannot be changed on a team server on PostgreSQL: the tunnel is not available with --database ' +
          '(reach the server through your reverse proxy and --public-url instead).',
        details: { field: 'tunnel.subdomain' },
      });
      assert.equal((await settingsOf(a)).retention.maxLogsPerAccount, 10_000);
      assert.equal((await settingsOf(b)).retention.maxLogsPerAccount, 10_000);
    });
  });
});
