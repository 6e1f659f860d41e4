import assert from 'node:assert/strict';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LoginStore } from '../../../server/cli/login-store.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

const login = (token: string) => ({
  token,
  accountId: 'acc_1',
  account: 'local',
  expiresAt: '2026-12-27T09:00:00.000Z',
});

describe('LoginStore: credentials.json in the data directory', () => {
  test('a data directory not made yet is created 0700, the file 0600, and no temp file is left', async () => {
    const root = await makeTempDir();
    try {
      const dir = join(root, 'not-yet');
      const store = new LoginStore(dir);
      assert.deepEqual(await store.all(), new Map());
      await store.save('https://a.example.com', login('t1'));
      assert.equal((await stat(dir)).mode & 0o777, 0o700);
      assert.equal((await stat(store.path)).mode & 0o777, 0o600);
      assert.deepEqual(await readdir(dir), ['credentials.json']);
      await store.save('https://b.example.com', login('t2'));
      await store.save('https://a.example.com', login('t3'));
      assert.deepEqual(
        [...(await store.all())],
        [
          ['https://a.example.com', login('t3')],
          ['https://b.example.com', login('t2')],
        ],
      );
      assert.equal(await store.forget('https://a.example.com'), true);
      assert.equal(await store.forget('https://a.example.com'), false);
      assert.deepEqual([...(await store.all()).keys()], ['https://b.example.com']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test('a file that is not one it wrote: one sentence naming it, never a stack or a silent reset', async () => {
    const dir = await makeTempDir();
    try {
      const store = new LoginStore(dir);
      for (const text of ['{not json', '{"logins":{"https://a.example.com":{"token":""}}}', '[]']) {
        await writeFile(store.path, text);
        await assert.rejects(store.find('https://a.example.com'), {
          message: `${store.path} is not a credentials file Hookscope wrote; delete it and run \`hookscope login <url>\` again.`,
        });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
