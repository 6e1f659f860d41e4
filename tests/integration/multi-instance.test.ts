import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { runCli, startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres, type FreshDatabase } from '../helpers/postgres.ts';
import { makeTempDir } from '../helpers/test-engine.ts';

/**
 * Several `hookscope serve --database` processes on one PostgreSQL (issue 23,
 * "Several instances"): what holds because every write is committed before it
 * is acknowledged and every read goes to the database.
 */
after(stopTestPostgres);

interface Team {
  database: FreshDatabase;
  dirs: string[];
  instances: ServeProcess[];
}

async function withTeam(fn: (team: Team) => Promise<void>): Promise<void> {
  const team: Team = { database: await freshDatabase(), dirs: [], instances: [] };
  try {
    await fn(team);
  } finally {
    for (const s of team.instances)
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await Promise.all(team.instances.map((s) => s.exited));
    for (const d of team.dirs) await rm(d, { recursive: true, force: true });
    await team.database.drop();
  }
}

async function start(team: Team, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const dir = await makeTempDir();
  team.dirs.push(dir);
  const s = await startServe(dir, ['--database', team.database.url], env);
  team.instances.push(s);
  return s;
}

async function tokenFor(team: Team, user = 'alice'): Promise<string> {
  const r = await runCli(['token', '--database', team.database.url, '--user', user]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

async function api(s: ServeProcess, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${s.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Every log id of the account's endpoint, through one instance's API (pages of 200). */
async function storedIds(s: ServeProcess, token: string, endpointId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api(s, token, 'GET', `/api/webhooks/logs?endpointId=${endpointId}&limit=200&offset=${offset}`);
    ids.push(...page.logs.map((l: { id: string }) => l.id));
    if (!page.hasMore) return ids;
  }
}

describe('several instances on one database', () => {
  test('two instances started at the same moment on an empty database both come up, migrating it once', async () => {
    await withTeam(async (team) => {
      const [a, b] = await Promise.all([start(team), start(team)]);
      const token = await tokenFor(team);
      for (const s of [a, b])
        assert.deepEqual(await api(s, token, 'GET', '/api/endpoints'), { endpoints: [], total: 0 });
      const client = new pg.Client({ connectionString: team.database.url });
      await client.connect();
      try {
        const r = await client.query<{ n: number; distinct: number }>(
          'SELECT count(*)::int AS n, count(DISTINCT (feature, number))::int AS distinct FROM schema_migrations',
        );
        assert.ok(r.rows[0]!.n > 10);
        assert.equal(r.rows[0]!.n, r.rows[0]!.distinct, 'each migration recorded once');
      } finally {
        await client.end();
      }
    });
  });

  test('an endpoint created on one instance receives on the other at once, and a share link made on one opens on the other', async () => {
    await withTeam(async (team) => {
      const a = await start(team);
      const b = await start(team);
      const token = await tokenFor(team);
      const endpoint = (await api(a, token, 'POST', '/api/endpoints', { name: 'both', validationType: 'none' })).id;
      const res = await fetch(`${b.receiverUrl}/webhook/${endpoint}`, { method: 'POST', body: 'to B' });
      assert.equal(res.status, 200);
      const logId = ((await res.json()) as { data: { id: string } }).data.id;
      const share = await api(a, token, 'POST', `/api/webhooks/${logId}/share`);
      const token64 = (share.url as string).slice((share.url as string).lastIndexOf('/share/') + 7);
      const page = await fetch(`${b.receiverUrl}/share/${token64}`, { headers: { accept: 'application/json' } });
      assert.equal(page.status, 200);
      assert.equal(((await page.json()) as { data: { body: string } }).data.body, 'to B');
    });
  });

  test('an instance killed with SIGKILL mid-burst loses nothing it acknowledged', async () => {
    await withTeam(async (team) => {
      const a = await start(team);
      const b = await start(team);
      const token = await tokenFor(team);
      const endpoint = (await api(a, token, 'POST', '/api/endpoints', { name: 'burst', validationType: 'none' })).id;
      const acknowledged: string[] = [];
      let sent = 0;
      const sender = async (): Promise<void> => {
        for (;;) {
          const n = sent++;
          try {
            const res = await fetch(`${a.receiverUrl}/webhook/${endpoint}`, { method: 'POST', body: `delivery ${n}` });
            if (res.status !== 200) return;
            acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
          } catch {
            return; // the instance is gone: this delivery was never acknowledged
          }
        }
      };
      const senders = Array.from({ length: 8 }, sender);
      while (acknowledged.length < 150) await new Promise((r) => setTimeout(r, 5));
      a.child.kill('SIGKILL');
      await Promise.all(senders);
      assert.ok(acknowledged.length >= 150);
      const stored = new Set(await storedIds(b, token, endpoint));
      const lost = acknowledged.filter((id) => !stored.has(id));
      assert.deepEqual(lost, [], `every acknowledged delivery is stored (${acknowledged.length} acknowledged)`);
    });
  });

  test("retention holds an account's budget exactly while two instances receive for it", async () => {
    await withTeam(async (team) => {
      const env = { HOOKSCOPE_RETENTION_MAX_LOGS: '25' };
      const a = await start(team, env);
      const token = await tokenFor(team);
      const endpoint = (await api(a, token, 'POST', '/api/endpoints', { name: 'budget', validationType: 'none' })).id;
      // Started after the endpoint exists, so its receiver knows it from the start.
      const b = await start(team, env);
      const send = (s: ServeProcess, n: number) =>
        fetch(`${s.receiverUrl}/webhook/${endpoint}`, { method: 'POST', body: `n${n}` }).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: 120 }, (_, n) => send(n % 2 ? a : b, n)));
      assert.deepEqual(new Set(statuses), new Set([200]));
      for (const s of [a, b]) {
        const page = await api(s, token, 'GET', `/api/webhooks/logs?endpointId=${endpoint}&limit=100`);
        assert.equal(page.total, 25);
        assert.equal(page.logs.length, 25);
      }
    });
  });
});
