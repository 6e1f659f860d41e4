import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { runCli, startServe, type ServeProcess } from '../helpers/cli-process.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { after, describe, test } from '../helpers/node-test.ts';
import { freshDatabase, stopTestPostgres } from '../helpers/postgres.ts';
import { makeTempDir } from '../helpers/test-engine.ts';

/**
 * `hookscope serve --database` (issue 23): a team server's data lives in
 * PostgreSQL, not in the instance's data directory. An instance started later
 * with another data directory serves what the first stored, accepts the tokens
 * signed with the database's key, and the CLI mints such tokens from the
 * database or from an instance's data directory.
 */
after(stopTestPostgres);

/** The URL with a password: trust authentication ignores it, and no output may show it. */
const withPassword = (url: string): string => {
  const u = new URL(url);
  u.password = 'pw-never-shown';
  return u.toString();
};

/** `serve --database url` expected to refuse to start: its result, or a kill after 20 s if it did start. */
const serveRefused = (dir: string, url: string) =>
  runCli(['serve', '--data-dir', dir, '--api-port', '0', '--receiver-port', '0', '--database', url], {}, 20_000);

async function stopServe(s: ServeProcess): Promise<void> {
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0, s.output());
}

const api = async (s: ServeProcess, token: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${s.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('serve --database', () => {
  test('a second instance with its own data directory serves what the first stored, with the same tokens', async () => {
    const database = await freshDatabase();
    const url = withPassword(database.url);
    const dirA = await makeTempDir();
    const dirB = await makeTempDir();
    let a: ServeProcess | null = null;
    let b: ServeProcess | null = null;
    try {
      a = await startServe(dirA, ['--database', url]);
      assert.match(a.output(), /Database {3}postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/hookscope_test_\w+\n/);
      assert.ok(!a.output().includes('pw-never-shown'), 'the password is never printed');
      // Minted from A's data directory: the database's key is mirrored there.
      const fromDir = await runCli(['token', '--data-dir', dirA, '--user', 'alice']);
      assert.equal(fromDir.code, 0, fromDir.stderr);
      const alice = fromDir.stdout.trim();
      const created = await api(a, alice, 'POST', '/api/endpoints', { name: 'team hooks', validationType: 'none' });
      assert.equal(created.status, 201);
      const id = created.body.data.id as string;
      const delivered = await fetch(`${a.receiverUrl}/webhook/${id}`, { method: 'POST', body: 'from A \u00e9' });
      assert.equal(delivered.status, 200);
      const logId = ((await delivered.json()) as any).data.id as string;
      await stopServe(a);
      a = null;

      b = await startServe(dirB, ['--database', url]);
      // The token A's directory signed is valid on B; so is one minted from the database itself.
      const fromDb = await runCli(['token', '--database', url, '--user', 'alice', '--json']);
      assert.equal(fromDb.code, 0, fromDb.stderr);
      for (const token of [alice, JSON.parse(fromDb.stdout).token as string]) {
        const endpoints = await api(b, token, 'GET', '/api/endpoints');
        assert.equal(endpoints.status, 200);
        assert.deepEqual(
          endpoints.body.data.endpoints.map((e: any) => [e.id, e.name]),
          [[id, 'team hooks']],
        );
      }
      const log = await api(b, alice, 'GET', `/api/webhooks/logs/${logId}`);
      assert.equal(log.status, 200);
      assert.deepEqual([log.body.data.body, log.body.data.bodyEncoding], ['from A \u00e9', 'utf8']);
      // B receives for the endpoint A created; another account sees none of it.
      assert.equal((await fetch(`${b.receiverUrl}/webhook/${id}`, { method: 'POST', body: 'to B' })).status, 200);
      const page = await api(b, alice, 'GET', `/api/webhooks/logs?endpointId=${id}`);
      assert.deepEqual(
        page.body.data.logs.map((l: any) => l.size),
        [4, 9],
      );
      const bob = (await runCli(['token', '--database', url, '--user', 'bob'])).stdout.trim();
      assert.equal((await api(b, bob, 'GET', `/api/webhooks/logs/${logId}`)).status, 404);
    } finally {
      for (const s of [a, b]) if (s && s.child.exitCode === null) s.child.kill('SIGKILL');
      await rm(dirA, { recursive: true, force: true });
      await rm(dirB, { recursive: true, force: true });
      await database.drop();
    }
  });

  test('--database with --tunnel is refused with a sentence, before anything starts', async () => {
    const dir = await makeTempDir();
    try {
      const r = await runCli(['serve', '--data-dir', dir, '--database', 'postgres://h.invalid/db', '--tunnel']);
      assert.equal(r.code, 2, 'a configuration error');
      assert.match(r.stderr, /--database and --tunnel cannot be used together: .* Drop --tunnel/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a database that cannot be reached stops start-up with a sentence naming it, its password hidden', async () => {
    const dir = await makeTempDir();
    const port = await closedPort();
    try {
      const url = `postgres://hookscope:pw-never-shown@127.0.0.1:${port.port}/hookscope`;
      const r = await serveRefused(dir, url);
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(
          `^hookscope: Could not reach the database at postgres://hookscope:\\*\\*\\*@127\\.0\\.0\\.1:${port.port}/hookscope: ` +
            `connect ECONNREFUSED 127\\.0\\.0\\.1:${port.port}\\. Check --database`,
        ),
      );
      assert.ok(!r.stderr.includes('pw-never-shown') && !r.stdout.includes('pw-never-shown'));
    } finally {
      await port.release();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a database in another encoding than UTF8 stops start-up with what to do, and nothing is written to it', async () => {
    const dir = await makeTempDir();
    const database = await freshDatabase({ encoding: 'LATIN1' });
    try {
      const r = await serveRefused(dir, withPassword(database.url));
      assert.equal(r.code, 1);
      const shown = new URL(database.url);
      assert.match(
        r.stderr,
        new RegExp(
          `^hookscope: The database at postgres://postgres:\\*\\*\\*@${shown.host.replaceAll('.', '\\.')}${shown.pathname} uses the LATIN1 encoding; ` +
            'Hookscope needs UTF8\\. Create it with `createdb --encoding=UTF8 --template=template0 <name>` and start again\\.',
        ),
      );
      assert.ok(!r.stderr.includes('pw-never-shown'));
      const tables = new pg.Client({ connectionString: database.url });
      await tables.connect();
      try {
        const { rows } = await tables.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
        assert.deepEqual(rows, [{ n: 0 }]);
      } finally {
        await tables.end();
      }
    } finally {
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a token from a database no engine has started on is refused with what to do', async () => {
    const database = await freshDatabase();
    try {
      const r = await runCli(['token', '--database', database.url]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /No Hookscope engine has started on this database yet.*hookscope serve --database/);
      assert.equal(r.stdout, '');
    } finally {
      await database.drop();
    }
  });
});
