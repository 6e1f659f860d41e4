import assert from 'node:assert/strict';
import { readlinkSync } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, mock, test } from '../../helpers/node-test.ts';
import { loadOrCreateSigningKey, SIGNING_KEY_FILE } from '../../../server/auth/signing-key.ts';
import { SeededRandom } from '../../../server/support/random.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const tempDir = tempDirs('hookscope-signing-key-');

describe('the signing key', () => {
  test('two engines starting at once share one key, 0600, and no temp file is left', async () => {
    const dir = await tempDir();
    const [a, b] = await Promise.all([
      loadOrCreateSigningKey(dir, new SeededRandom(1)),
      loadOrCreateSigningKey(dir, new SeededRandom(2)),
    ]);
    assert.deepEqual(a, b);
    assert.equal(a.length, 32);
    assert.deepEqual(await readdir(dir), [SIGNING_KEY_FILE]);
    if (process.platform !== 'win32') assert.equal((await stat(join(dir, SIGNING_KEY_FILE))).mode & 0o777, 0o600);
  });

  // /proc/self/fd names the file each fsync is for (Linux).
  test(
    'the key is fsynced with all its bytes before it is linked into place, and the directory after',
    { skip: process.platform !== 'linux' && 'reads /proc/self/fd' },
    async () => {
      const dir = await tempDir();
      const path = join(dir, SIGNING_KEY_FILE);
      const probe = await open(dir, 'r');
      const handleProto = Object.getPrototypeOf(probe) as { sync: (this: { fd: number }) => Promise<void> };
      await probe.close();
      const seen: { file: string; bytes: number; linked: boolean }[] = [];
      const original = handleProto.sync;
      mock.method(handleProto, 'sync', async function (this: { fd: number }) {
        const file = readlinkSync(`/proc/self/fd/${this.fd}`);
        const isDir = (await stat(file)).isDirectory();
        seen.push({
          file: file === dir ? '<dir>' : file.endsWith('.tmp') ? '<temp>' : file.slice(dir.length + 1),
          bytes: isDir ? 0 : (await readFile(file)).length,
          linked: await stat(path).then(
            () => true,
            () => false,
          ),
        });
        return original.call(this);
      });
      try {
        await loadOrCreateSigningKey(dir, new SeededRandom(3));
      } finally {
        mock.restoreAll();
      }
      // 32 bytes as base64url (43 characters) and a newline.
      assert.deepEqual(seen, [
        { file: '<temp>', bytes: 44, linked: false },
        { file: '<dir>', bytes: 0, linked: true },
      ]);
    },
  );
});
