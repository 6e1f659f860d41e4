import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SLOW_TEST_TIMEOUT_MS, after, describe, test } from '../helpers/node-test.ts';
import { runCli } from '../helpers/cli-process.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { spawnCli, type LiveCli } from '../helpers/cli-spawn.ts';
import { eventually } from '../helpers/sse-stream.ts';
import { makeTempDir, startTestEngine, type TestEngine } from '../helpers/test-engine.ts';

const dirs: string[] = [];
const live: LiveCli[] = [];
after(async () => {
  for (const l of live) if (l.child.exitCode === null) l.child.kill('SIGKILL');
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const tail = (dir: string, ...args: string[]): LiveCli => {
  const l = spawnCli(['tail', '--data-dir', dir, ...args]);
  live.push(l);
  return l;
};
const started = (l: LiveCli) => l.waitFor(/Tailing deliveries from http:\/\/127\.0\.0\.1:\d+/, 'stderr');

describe('hookscope tail', () => {
  test('prints a delivery made after it started, one line each, and exits 0 on SIGTERM releasing its listener', async () => {
    const t = await startTestEngine();
    try {
      const ep = await t.endpoint({ name: 'tail', validationType: 'none' });
      const l = tail(t.dataDir);
      await started(l);
      const d = await t.deliver(`/webhook/${ep}/orders`, {
        body: '{"n":1}',
        headers: { 'content-type': 'application/json' },
      });
      const id = d.body.data.id as string;
      const m = await l.waitFor(new RegExp(`^.*${id}.*$`, 'm'));
      assert.match(m[0], new RegExp(`^\\d\\d:\\d\\d:\\d\\d  ${id}  ${ep}  POST /orders  success  7 B$`));
      assert.equal(t.engine.events.listenerCount(), 1);
      l.child.kill('SIGTERM');
      assert.equal(await l.exited, 0, l.stderr());
      await eventually(() => t.engine.events.listenerCount() === 0, 'the stream is released');
      assert.ok(!l.stdout().includes('Tailing'), 'stdout carries only deliveries');
    } finally {
      await t.stop();
    }
  });

  test('--json prints one JSON object per line; --endpoint and --status filter', async () => {
    const t = await startTestEngine();
    try {
      const a = await t.endpoint({ name: 'a', validationType: 'none' });
      const b = await t.endpoint({ name: 'b', validationType: 'none' });
      const signed = await t.endpoint({ name: 's', validationType: 'hmac_sha256', webhookSecret: 'topsecret123' });
      const json = tail(t.dataDir, '--json', '--endpoint', a);
      const failed = tail(t.dataDir, '--status', 'failed');
      await Promise.all([started(json), started(failed)]);

      const fromB = (await t.deliver(`/webhook/${b}`, { body: 'b' })).body.data.id as string;
      const bad = (await t.deliver(`/webhook/${signed}`, { body: 'unsigned' })).body.error.details.logId as string;
      const fromA = (await t.deliver(`/webhook/${a}/x`, { body: 'a' })).body.data.id as string;

      await json.waitFor(new RegExp(fromA));
      const lines = json.stdout().trim().split('\n');
      assert.equal(lines.length, 1, json.stdout());
      const obj = JSON.parse(lines[0]!);
      assert.equal(obj.id, fromA);
      assert.equal(obj.endpointId, a);
      assert.equal(obj.path, '/x');
      assert.ok(!json.stdout().includes(fromB));

      await failed.waitFor(new RegExp(`${bad}.*failed missing_header`));
      assert.ok(!failed.stdout().includes(fromB) && !failed.stdout().includes(fromA));
      for (const l of [json, failed]) l.child.kill('SIGINT');
      assert.deepEqual(await Promise.all([json.exited, failed.exited]), [0, 0]);
    } finally {
      await t.stop();
    }
  });

  test('reconnects when the engine restarts (on a new port) and prints deliveries made after that', async () => {
    const dir = await makeTempDir('hookscope-cli-live-');
    dirs.push(dir);
    let t: TestEngine = await startTestEngine({}, {}, dir);
    const ep = await t.endpoint({ name: 'restart', validationType: 'none' });
    const l = tail(dir);
    try {
      await started(l);
      const before = (await t.deliver(`/webhook/${ep}`, { body: 'before' })).body.data.id as string;
      await l.waitFor(new RegExp(before));
      await t.stop();
      await l.waitFor(/reconnecting|waiting/, 'stderr');
      t = await startTestEngine({}, {}, dir);
      const afterRestart = (await t.deliver(`/webhook/${ep}`, { body: 'after' })).body.data.id as string;
      await l.waitFor(new RegExp(afterRestart));
      await l.waitFor(/Reconnected to http:\/\/127\.0\.0\.1:\d+/, 'stderr');
      assert.equal(l.stdout().trim().split('\n').length, 2, 'each delivery exactly once');
      l.child.kill('SIGTERM');
      assert.equal(await l.exited, 0);
    } finally {
      await t.stop();
    }
  });
});

describe('no engine running', () => {
  const message = (dir: string) =>
    `hookscope: No Hookscope engine is running for ${dir}; start one with \`npx hookscope serve\`\n`;

  test(
    'every engine command exits 1 with one line naming the data directory',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const dir = await makeTempDir('hookscope-cli-none-');
      dirs.push(dir);
      for (const args of [
        ['endpoints'],
        ['endpoints', 'show', 'ep_x'],
        ['logs'],
        ['logs', 'show', 'log_x'],
        ['tail'],
      ]) {
        const r = await runCli([...args, '--data-dir', dir]);
        assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stderr, message(dir), args.join(' '));
        assert.equal(r.stdout, '');
      }
    },
  );

  test('a stale runtime.json (its process is gone) counts as no engine; HOOKSCOPE_DATA_DIR is honoured', async () => {
    const dir = await makeTempDir('hookscope-cli-stale-');
    dirs.push(dir);
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = gone.pid!;
    await new Promise((r) => gone.on('exit', r));
    const closed = (await closedPort()).url;
    await writeFile(
      join(dir, 'runtime.json'),
      JSON.stringify({
        pid,
        apiUrl: closed,
        receiverUrl: closed,
        publicUrl: null,
        startedAt: new Date().toISOString(),
        version: '0',
      }),
    );
    const r = await runCli(['logs'], { HOOKSCOPE_DATA_DIR: dir });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, message(dir));
  });
});

describe('usage errors and help', () => {
  test(
    'bad flags and missing arguments exit 2 without touching the engine',
    { timeout: SLOW_TEST_TIMEOUT_MS },
    async () => {
      const dir = await makeTempDir('hookscope-cli-usage-');
      dirs.push(dir);
      for (const args of [
        ['logs', '--status', 'weird'],
        ['logs', '--limit', 'abc'],
        ['logs', '--limit', '201'],
        ['logs', '--offset', '-1'],
        ['logs', '--bogus'],
        ['logs', 'show'],
        ['tail', '--status', 'nope'],
        ['endpoints', 'create', '--name', 'x'],
        ['endpoints', 'create', '--name', 'x', '--type', 'bogus'],
        ['endpoints', 'create', '--name', 'x', '--type', 'stripe'],
        ['endpoints', 'create', '--name', 'x', '--type', 'none', '--forward-url', 'not a url'],
        ['endpoints', 'show'],
        ['endpoints', 'frobnicate', 'x'],
        ['endpoints', '--user', 'has space'],
      ]) {
        const r = await runCli([...args, '--data-dir', dir]);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stdout, '', args.join(' '));
        assert.ok(!r.stderr.includes('    at '), 'no stack trace');
      }
    },
  );

  test('every command has --help (exit 0)', { timeout: SLOW_TEST_TIMEOUT_MS }, async () => {
    for (const args of [['endpoints'], ['logs']]) {
      const r = await runCli([...args, '--help']);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /Commands:[^]*list[^]*show/);
    }
    for (const args of [['endpoints', 'list'], ['endpoints', 'create'], ['logs', 'list'], ['logs', 'show'], ['tail']]) {
      const r = await runCli([...args, '--help']);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /Usage: hookscope/);
      assert.match(r.stdout, /--json/);
      assert.match(r.stdout, /--data-dir/);
    }
    const top = await runCli(['--help']);
    for (const c of ['endpoints', 'logs', 'tail']) assert.match(top.stdout, new RegExp(`\\b${c}\\b`));
  });
});
