import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitOnMainProcessFaults, FATAL_TITLE } from '../../../electron/main-process-faults.ts';
import { openEngineLog } from '../../../server/support/logger.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const newDir = tempDirs('hookscope-main-faults-');

/** The log's lines, read synchronously: the dialog's callback is synchronous, as Electron's is. */
const linesOf = (file: string): Record<string, any>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);

describe("the main process's uncaught errors", () => {
  for (const [event, what] of [
    ['uncaughtException', 'uncaught exception; exiting'],
    ['unhandledRejection', 'unhandled promise rejection; exiting'],
  ] as const) {
    test(`${event}: logged at fatal with its stack and flushed, then the user is told where, then exit 1`, async () => {
      const dir = await newDir();
      const log = await openEngineLog({ dataDir: dir });
      const proc = new EventEmitter();
      const steps: string[] = [];
      let logAtDialog: Record<string, any>[] = [];
      const exited = new Promise<number>((resolve) =>
        exitOnMainProcessFaults(proc, log, {
          showError: (title, content) => {
            steps.push(`dialog: ${title}: ${content}`);
            // Read while the dialog is up: the line is on disk before the user is told, not after.
            logAtDialog = linesOf(log.file);
          },
          exit: (code) => {
            steps.push(`exit ${code}`);
            resolve(code);
          },
        }),
      );
      proc.emit(event, new Error('nobody caught this'));
      assert.equal(await exited, 1);
      assert.deepEqual(steps, [
        `dialog: ${FATAL_TITLE}: The details are in ${join(dir, 'logs', 'engine.log')}.`,
        'exit 1',
      ]);
      assert.equal(logAtDialog.length, 1);
      const [line] = logAtDialog;
      assert.equal(line!.level, 'fatal');
      assert.equal(line!.msg, what);
      assert.equal(line!.err.message, 'nobody caught this');
      assert.match(line!.err.stack, /main-process-faults\.test\.ts/);
      assert.deepEqual(linesOf(log.file), logAtDialog, 'nothing after it');
    });
  }

  test('the returned function removes both handlers', async () => {
    const log = await openEngineLog({ dataDir: await newDir() });
    try {
      const proc = new EventEmitter();
      const detach = exitOnMainProcessFaults(proc, log, {
        showError: () => assert.fail('no dialog'),
        exit: () => assert.fail('no exit'),
      });
      assert.equal(proc.listenerCount('uncaughtException'), 1);
      assert.equal(proc.listenerCount('unhandledRejection'), 1);
      detach();
      assert.equal(proc.listenerCount('uncaughtException'), 0);
      assert.equal(proc.listenerCount('unhandledRejection'), 0);
    } finally {
      await log.close();
    }
  });
});
