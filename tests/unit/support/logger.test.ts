import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '../../helpers/node-test.ts';
import { ManualClock } from '../../../server/support/clock.ts';
import { openEngineLog } from '../../../server/support/logger.ts';
import { formatLogLine } from '../../../server/support/logger-format.ts';
import { exitOnFatalErrors } from '../../../server/support/logger-process.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

describe('engine log file', () => {
  test('rotates by size and keeps a bounded number of files, each 0600', async () => {
    const dir = await makeTempDir();
    try {
      const log = await openEngineLog({ dataDir: dir, maxBytes: 1024, keep: 2 });
      for (let i = 0; i < 200; i++) log.logger.info({ i, filler: 'x'.repeat(40) }, 'line');
      await log.close();
      const files = (await readdir(join(dir, 'logs'))).sort();
      assert.deepEqual(files, ['engine.log', 'engine.log.1', 'engine.log.2']);
      for (const f of files) {
        const s = await stat(join(dir, 'logs', f));
        assert.equal(s.mode & 0o777, 0o600, f);
        // A file rotates once a write takes it past the limit, so it holds at most one line more.
        assert.ok(s.size < 1024 + 200, `${f} is ${s.size} bytes`);
      }
      // Oldest to newest, the kept files hold the last lines written, in order, with none missing.
      const kept: number[] = [];
      for (const f of ['engine.log.2', 'engine.log.1', 'engine.log']) {
        const text = await readFile(join(dir, 'logs', f), 'utf8');
        for (const l of text.split('\n').filter(Boolean)) kept.push(JSON.parse(l).i as number);
      }
      assert.equal(kept.at(-1), 199);
      assert.deepEqual(
        kept,
        kept.map((_, k) => 200 - kept.length + k),
      );
      assert.ok(kept.length < 200, 'older lines were dropped with the oldest file');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('an existing logs directory is made private (0700)', async () => {
    const dir = await makeTempDir();
    try {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(dir, 'logs'), { mode: 0o755 });
      const log = await openEngineLog({ dataDir: dir });
      await log.close();
      assert.equal((await stat(join(dir, 'logs'))).mode & 0o777, 0o700);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('lines carry the injected time and the level by name; the console gets readable lines', async () => {
    const dir = await makeTempDir();
    try {
      const log = await openEngineLog({ dataDir: dir, clock: new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5, 6)) });
      const printed: string[] = [];
      log.logger.info('before the console');
      log.addConsole((l) => printed.push(l));
      log.logger.info({ apiPort: 4680, url: 'http://127.0.0.1:4680', note: 'two words' }, 'engine started');
      await log.close();
      log.logger.info('after close is dropped, not thrown');
      const lines = (await readFile(join(dir, 'logs', 'engine.log'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(lines.length, 2);
      assert.equal(lines[1].time, '2026-01-02T03:04:05.006Z');
      assert.equal(lines[1].level, 'info');
      assert.equal(lines[1].msg, 'engine started');
      assert.deepEqual(printed, [
        '2026-01-02T03:04:05.006Z INFO  engine started apiPort=4680 url=http://127.0.0.1:4680 note="two words"',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('console format', () => {
  test('time LEVEL message key=value, then the stack indented', () => {
    const line = JSON.stringify({
      level: 'error',
      time: '2026-01-01T00:00:00.000Z',
      pid: 7,
      errorId: 'err_1',
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
      msg: 'unexpected error',
    });
    assert.equal(
      formatLogLine(line),
      '2026-01-01T00:00:00.000Z ERROR unexpected error errorId=err_1\n    Error: boom\n        at x',
    );
  });

  test('a line that is not JSON is printed as it came', () => {
    assert.equal(formatLogLine('not json\n'), 'not json');
  });
});

describe('fatal errors in the engine process', () => {
  for (const [event, what] of [
    ['uncaughtException', 'uncaught exception; exiting'],
    ['unhandledRejection', 'unhandled promise rejection; exiting'],
  ] as const) {
    test(`${event} is logged at fatal with its stack, the log is flushed, then the process exits 1`, async () => {
      const dir = await makeTempDir();
      try {
        const log = await openEngineLog({ dataDir: dir });
        const proc = new EventEmitter();
        const exited = new Promise<number>((resolve) => exitOnFatalErrors(proc, log, resolve));
        proc.emit(event, new Error('nobody caught this'));
        assert.equal(await exited, 1);
        const lines = (await readFile(join(dir, 'logs', 'engine.log'), 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        assert.equal(lines.length, 1);
        assert.equal(lines[0].level, 'fatal');
        assert.equal(lines[0].msg, what);
        assert.equal(lines[0].err.message, 'nobody caught this');
        assert.match(lines[0].err.stack, /logger\.test\.ts/);
        assert.equal(proc.listenerCount(event), 1);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  test('the returned function removes both handlers', async () => {
    const dir = await makeTempDir();
    try {
      const log = await openEngineLog({ dataDir: dir });
      const proc = new EventEmitter();
      const detach = exitOnFatalErrors(proc, log, () => assert.fail('must not exit'));
      detach();
      assert.equal(proc.listenerCount('uncaughtException'), 0);
      assert.equal(proc.listenerCount('unhandledRejection'), 0);
      await log.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
