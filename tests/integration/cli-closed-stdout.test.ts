import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from '../helpers/node-test.ts';
import { BIN } from '../helpers/cli-process.ts';
import { runCliFirstLine } from '../helpers/cli-spawn.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

// `hookscope ... | head -1`: the reader leaves after one line; the CLI must end with 0 and no EPIPE stack.
describe('a reader that closes stdout after the first line', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine();
    const ep = await t.endpoint({ name: 'many', validationType: 'none' });
    // About 1 MB of table, more than a pipe or socket buffer holds: the CLI is still writing when the reader leaves.
    const long = 'p'.repeat(5_000);
    for (let i = 0; i < 200; i++) {
      const r = await t.deliver(`/webhook/${ep}/${long}${i}`, { body: '{}' });
      assert.equal(r.status, 200);
    }
  });
  after(() => t.stop());

  test('logs list exits 0 and prints nothing on stderr', async () => {
    const r = await runCliFirstLine(['logs', 'list', '--limit', '200', '--data-dir', t.dataDir]);
    assert.match(r.firstLine, /^TIME\s+ID\s+ENDPOINT\s+METHOD\s+PATH\s+STATUS\s+REASON\s+SIZE$/);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
  });

  test('logs list --json exits 0 and prints nothing on stderr', async () => {
    const r = await runCliFirstLine(['logs', 'list', '--limit', '200', '--json', '--data-dir', t.dataDir]);
    assert.equal(r.firstLine, '{');
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
  });

  test('replay --help exits 0 and prints nothing on stderr', async () => {
    const r = await runCliFirstLine(['replay', '--help']);
    assert.equal(r.firstLine, 'Usage: hookscope replay [options] <logId>');
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
  });
});

test('a running engine whose stdout closes keeps receiving, and stops cleanly later', async () => {
  const dataDir = await makeTempDir('hookscope-closed-serve-');
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--data-dir', dataDir, '--api-port', '0', '--receiver-port', '0'],
    {
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  // The reader leaves before the banner is written.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  try {
    let runtime: { pid: number; receiverUrl: string } | null = null;
    for (let i = 0; i < 600 && !runtime; i++) {
      runtime = await readFile(join(dataDir, 'runtime.json'), 'utf8')
        .then((t) => JSON.parse(t) as { pid: number; receiverUrl: string })
        .catch(() => null);
      if (!runtime) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(runtime, `serve started: ${stderr}`);
    // Long after the banner's write failed, the engine still answers.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(child.exitCode, null, 'still running');
    const health = await fetch(`${runtime.receiverUrl}/healthz`);
    assert.equal(health.status, 200);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.doesNotMatch(stderr, /EPIPE/);
  } finally {
    child.kill('SIGKILL');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
});
