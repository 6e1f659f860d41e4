import assert from 'node:assert/strict';
import { chmod, lstat, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { after, describe, test } from '../helpers/node-test.ts';
import { makeTempDir, startTestEngine } from '../helpers/test-engine.ts';

const posix = process.platform !== 'win32';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Every entry below `root` (root included) with its mode, by path relative to root ('' for root). */
async function modes(root: string): Promise<Map<string, { dir: boolean; mode: number }>> {
  const out = new Map<string, { dir: boolean; mode: number }>();
  const visit = async (path: string): Promise<void> => {
    const st = await lstat(path);
    out.set(relative(root, path), { dir: st.isDirectory(), mode: st.mode & 0o777 });
    if (st.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return out;
}

/** Asserts directories 0700 and files 0600 everywhere, and returns the entries seen. */
async function assertPrivate(root: string, when: string): Promise<string[]> {
  const seen = await modes(root);
  for (const [path, { dir, mode }] of seen) {
    assert.equal(mode, dir ? 0o700 : 0o600, `${when}: ${path || 'the data directory'} is 0${mode.toString(8)}`);
  }
  return [...seen.keys()].sort();
}

async function loosen(root: string): Promise<string[]> {
  const loosened: string[] = [];
  for (const [path, { dir }] of await modes(root)) {
    await chmod(join(root, path), dir ? 0o755 : 0o644);
    loosened.push(`${path || root} (${dir ? '0755 -> 0700' : '0644 -> 0600'})`);
  }
  return loosened;
}

describe('data directory permissions', { skip: !posix && 'POSIX modes only' }, () => {
  test('an engine started on a 0755 data directory with 0644 files makes everything private, says so once, and keeps it so', async () => {
    const dir = await makeTempDir('hookscope-perm-engine-');
    dirs.push(dir);
    // The usual umask: modes that come out right must have been set, not inherited from a tight umask.
    const umask = process.umask(0o022);
    try {
      // What an older version, or a hand-made --data-dir, leaves behind.
      const first = await startTestEngine({}, {}, dir);
      const ep = await first.endpoint({ name: 'perm', validationType: 'none' });
      assert.equal((await first.deliver(`/webhook/${ep}`, { body: 'before' })).status, 200);
      await first.stop();
      const loosened = await loosen(dir);
      const before = [...(await modes(dir)).keys()].sort();
      assert.deepEqual(
        before.filter((p) => p.startsWith('store/')).map((p) => p.replace(/\d+/, 'N')),
        ['store/blobs-N.dat', 'store/hookscope.db', 'store/journal-N.log'],
      );

      const notices: string[] = [];
      const engine = await startTestEngine({}, { onNotice: (m) => notices.push(m) }, dir);
      try {
        assert.equal(notices.length, 1, notices.join('\n'));
        const notice = notices[0]!;
        assert.ok(!notice.includes('\n'));
        for (const entry of loosened) assert.ok(notice.includes(entry), `the notice names ${entry}: ${notice}`);
        // The same line in the engine log, where the desktop app's user can find it.
        const logged = (await readFile(join(dir, 'logs', 'engine.log'), 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
        assert.deepEqual(
          logged.filter((l) => l.level === 'warn').map((l) => l.msg),
          [notice],
        );
        const afterStart = await assertPrivate(dir, 'after start');
        for (const f of ['engine.lock', 'runtime.json', 'signing-key', 'store', 'store/hookscope.db'])
          assert.ok(afterStart.includes(f), f);

        // A snapshot temp file left by a crash, readable by others: the checkpoint reuses the name
        // and renames it over the snapshot, which must not inherit its mode.
        await writeFile(join(dir, 'store', 'hookscope.db.tmp'), 'junk');
        await chmod(join(dir, 'store', 'hookscope.db.tmp'), 0o644);
        await engine.engine.checkpoint();
        await assertPrivate(dir, 'after a checkpoint');

        const segmentsBefore = afterStart.filter((p) => p.startsWith('store/journal-'));
        for (let i = 0; i < 20; i++)
          assert.equal((await engine.deliver(`/webhook/${ep}`, { body: `after ${i}` })).status, 200);
        const afterWrites = await assertPrivate(dir, 'after deliveries');
        const newSegments = afterWrites.filter((p) => p.startsWith('store/journal-') && !segmentsBefore.includes(p));
        assert.equal(newSegments.length, 1, 'the deliveries went to a segment opened after start');
      } finally {
        await engine.stop();
      }
      await assertPrivate(dir, 'after stop');
    } finally {
      process.umask(umask);
    }
  });

  test('a config.json written by hand is made 0600 at start, and stays so when the Settings screen saves it', async () => {
    const dir = await makeTempDir('hookscope-perm-config-');
    dirs.push(dir);
    const umask = process.umask(0o022);
    try {
      const path = join(dir, 'config.json');
      // Written by hand with the usual 0644, holding a secret.
      await writeFile(
        path,
        JSON.stringify({
          remediation: { llm: { url: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'sk-hand-written' } },
        }),
      );
      await chmod(path, 0o644);
      const notices: string[] = [];
      const t = await startTestEngine({}, { onNotice: (m) => notices.push(m) }, dir);
      try {
        assert.equal((await lstat(path)).mode & 0o777, 0o600);
        assert.ok(
          notices.some((n) => n.includes('config.json (0644 -> 0600)')),
          notices.join('\n'),
        );

        const saved = await t.api('PATCH', '/api/settings', { body: { retention: { maxLogsPerAccount: 42 } } });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        assert.equal((await lstat(path)).mode & 0o777, 0o600);
        assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), {
          remediation: { llm: { url: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'sk-hand-written' } },
          retention: { maxLogsPerAccount: 42 },
        });
        assert.deepEqual(
          (await readdir(dir)).filter((f) => f.startsWith('config.json')),
          ['config.json'],
          'no temp file left',
        );
      } finally {
        await t.stop();
      }
    } finally {
      process.umask(umask);
    }
  });
});
