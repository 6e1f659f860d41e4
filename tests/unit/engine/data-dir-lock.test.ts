import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '../../helpers/node-test.ts';
import { acquireDataDirLock, DataDirLockedError } from '../../../server/engine/data-dir-lock.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-lock-');

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('data directory lock', () => {
  test('a lock held by a live process is refused, naming its pid, and left untouched', async () => {
    const dir = await tempDir();
    // The test runner's parent process is alive and is not us.
    await writeFile(join(dir, 'engine.lock'), `${process.ppid} 00ff00ff\n`);
    await assert.rejects(acquireDataDirLock(dir), (e: unknown) => {
      assert.ok(e instanceof DataDirLockedError);
      assert.equal(e.pid, process.ppid);
      return true;
    });
    assert.deepEqual(await readdir(dir), ['engine.lock']);
    assert.equal(await readFile(join(dir, 'engine.lock'), 'utf8'), `${process.ppid} 00ff00ff\n`);
  });

  test('takes over past a contender that died between claiming a stale lock and renaming it, and clears its claim', async () => {
    const dir = await tempDir();
    const dead = await deadPid();
    await writeFile(join(dir, 'engine.lock'), `${dead} aaaa\n`);
    await writeFile(join(dir, 'engine.lock.aaaa.next'), `${dead} bbbb\n`);
    const release = await acquireDataDirLock(dir);
    assert.deepEqual(await readdir(dir), ['engine.lock']);
    assert.match(await readFile(join(dir, 'engine.lock'), 'utf8'), new RegExp(`^${process.pid} [0-9a-f]{24}\\n$`));
    await release();
    assert.deepEqual(await readdir(dir), []);
  });

  test('release leaves a lock that is no longer ours alone', async () => {
    const dir = await tempDir();
    const release = await acquireDataDirLock(dir);
    // Someone deleted our lock by hand and another engine took the directory.
    await writeFile(join(dir, 'engine.lock'), `${process.ppid} 0123\n`);
    await release();
    assert.equal(await readFile(join(dir, 'engine.lock'), 'utf8'), `${process.ppid} 0123\n`);
  });
});
