import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from '../helpers/node-test.ts';
import { runCli, startServe } from '../helpers/cli-process.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

const dirs: string[] = [];
const tempDir = async () => {
  const d = await makeTempDir('hookscope-cli-');
  dirs.push(d);
  return d;
};
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

describe('hookscope token', () => {
  test('prints a bare token on stdout and creates the key file with mode 0600', async () => {
    const dir = await tempDir();
    const r = await runCli(['token', '--data-dir', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout.trim(), JWT);
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.equal((await stat(join(dir, 'signing-key'))).mode & 0o777, 0o600);
  });

  test('--user, --ttl and --json', async () => {
    const dir = await tempDir();
    const r = await runCli(['token', '--data-dir', dir, '--user', 'alice', '--ttl', '15m', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.match(out.token, JWT);
    assert.match(out.accountId, /^acct_/);
    const ttl = Date.parse(out.expiresAt) - Date.now();
    assert.ok(ttl > 14 * 60_000 && ttl <= 15 * 60_000, String(ttl));
  });

  test('a bad --ttl or --user is a usage error (exit 2) with one line', async () => {
    const dir = await tempDir();
    for (const args of [
      ['--ttl', 'forever'],
      ['--ttl', '0s'],
      ['--user', 'has space'],
    ]) {
      const r = await runCli(['token', '--data-dir', dir, ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.trim().length > 0);
      assert.ok(!r.stderr.includes('    at '), 'no stack trace');
    }
  });

  test('an unknown command or flag exits 2', async () => {
    assert.equal((await runCli(['frobnicate'])).code, 2);
    assert.equal((await runCli(['token', '--nope'])).code, 2);
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /serve/);
  });
});

describe('hookscope serve', () => {
  test('serves, publishes runtime.json, accepts a CLI token, and stops cleanly on SIGTERM', async () => {
    const dir = await tempDir();
    const s = await startServe(dir);
    try {
      assert.match(s.output(), /API\s+http:\/\/127\.0\.0\.1:\d+/);
      const token = (await runCli(['token', '--data-dir', dir])).stdout.trim();
      const created = await fetch(`${s.apiUrl}/api/endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cli', validationType: 'none' }),
      });
      assert.equal(created.status, 201);
      const { data } = (await created.json()) as { data: { id: string } };
      const delivered = await fetch(`${s.receiverUrl}/webhook/${data.id}`, { method: 'POST', body: 'hello' });
      assert.equal(delivered.status, 200);
    } finally {
      s.child.kill('SIGTERM');
    }
    assert.equal(await s.exited, 0, s.output());
    assert.ok(!existsSync(join(dir, 'runtime.json')), 'runtime.json is removed on exit');
    assert.ok(existsSync(join(dir, 'store', 'hookscope.db')), 'the store was checkpointed on the way out');
  });

  test('a port in use is a one-line error, not a stack trace', async () => {
    const dir = await tempDir();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(['serve', '--data-dir', dir, '--api-port', String(port), '--receiver-port', '0']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.ok(!existsSync(join(dir, 'runtime.json')));
    } finally {
      blocker.close();
    }
  });

  test('a second engine on the same data directory is refused', async () => {
    const dir = await tempDir();
    const s = await startServe(dir);
    try {
      const r = await runCli(['serve', '--data-dir', dir, '--api-port', '0', '--receiver-port', '0']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /already using/);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  test('a bad port flag is a usage error', async () => {
    const r = await runCli(['serve', '--api-port', '70000']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--api-port/);
  });
});
