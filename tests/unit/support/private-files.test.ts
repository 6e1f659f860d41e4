import assert from 'node:assert/strict';
import { readlinkSync } from 'node:fs';
import { mkdir, open, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, mock, test } from '../../helpers/node-test.ts';
import { writePrivateFileAtomic } from '../../../server/support/private-files.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const posix = process.platform !== 'win32';
const tempDir = tempDirs('hookscope-atomic-');

/** Runs `fn` with no umask, so a 0600 file can only come from the helper setting it. */
async function withUmask<T>(mask: number, fn: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(previous);
  }
}

describe('writePrivateFileAtomic', () => {
  test('concurrent writes of one file each use their own temp file: all succeed, one whole content wins, nothing is left over', async () => {
    const dir = await tempDir();
    const path = join(dir, 'runtime.json');
    await writeFile(path, 'old');
    const contents = Array.from({ length: 20 }, (_, i) => `${String(i).repeat(10_000)}\n`);
    await withUmask(0o000, () => Promise.all(contents.map((c) => writePrivateFileAtomic(path, c))));
    assert.ok(contents.includes(await readFile(path, 'utf8')), 'one write, whole');
    assert.deepEqual(await readdir(dir), ['runtime.json']);
    if (posix) assert.equal((await stat(path)).mode & 0o777, 0o600);
  });

  test('a failed write leaves no temp file and the target as it was', async () => {
    const dir = await tempDir();
    // A directory with an entry in it cannot be replaced by a rename: the last step fails.
    const path = join(dir, 'config.json');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    await assert.rejects(writePrivateFileAtomic(path, '{}'), (e: NodeJS.ErrnoException) =>
      ['EISDIR', 'ENOTEMPTY', 'EEXIST', 'EPERM'].includes(e.code ?? ''),
    );
    assert.deepEqual(await readdir(dir), ['config.json']);
    assert.deepEqual(await readdir(path), ['inside']);
  });

  test('a file or link already at the temp name is never written through, nor removed', async () => {
    const dir = await tempDir();
    const path = join(dir, 'tunnel.json');
    const victim = join(dir, 'victim');
    await writeFile(victim, 'untouched');
    // The same seed gives the same name: plant a link where the write will create its temp file.
    const planted = join(dir, `tunnel.json.${new SeededRandom(7).bytes(6).toString('hex')}.tmp`);
    await symlink(victim, planted);
    await assert.rejects(writePrivateFileAtomic(path, 'new', new SeededRandom(7)), { code: 'EEXIST' });
    assert.equal(await readFile(victim, 'utf8'), 'untouched');
    assert.deepEqual((await readdir(dir)).sort(), [planted.slice(dir.length + 1), 'victim'].sort());
  });

  // /proc/self/fd names the file each fsync is for (Linux).
  test(
    'the temp file is fsynced with all its bytes before the rename, and the directory after it',
    { skip: process.platform !== 'linux' && 'reads /proc/self/fd' },
    async () => {
      const dir = await tempDir();
      const path = join(dir, 'runtime.json');
      await writeFile(path, 'old');
      const probe = await open(path, 'r');
      const handleProto = Object.getPrototypeOf(probe) as { sync: (this: { fd: number }) => Promise<void> };
      await probe.close();
      const seen: { file: string; bytes: string; target: string }[] = [];
      const original = handleProto.sync;
      mock.method(handleProto, 'sync', async function (this: { fd: number }) {
        const file = readlinkSync(`/proc/self/fd/${this.fd}`);
        const isDir = (await stat(file)).isDirectory();
        seen.push({
          file: file === dir ? '<dir>' : file.slice(dir.length + 1),
          bytes: isDir ? '' : await readFile(file, 'utf8'),
          target: await readFile(path, 'utf8'),
        });
        return original.call(this);
      });
      try {
        await writePrivateFileAtomic(path, 'new content', new SeededRandom(3));
      } finally {
        mock.restoreAll();
      }
      const temp = `runtime.json.${new SeededRandom(3).bytes(6).toString('hex')}.tmp`;
      assert.deepEqual(seen, [
        { file: temp, bytes: 'new content', target: 'old' },
        { file: '<dir>', bytes: '', target: 'new content' },
      ]);
    },
  );
});
