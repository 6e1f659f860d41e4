import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '../../helpers/node-test.ts';
import { describeModeChanges, tightenDataDir } from '../../../server/engine/data-dir-permissions.ts';
import { ensurePrivateDir, openPrivateFile, writePrivateFile } from '../../../server/support/private-files.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const posix = process.platform !== 'win32';
const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

const tempDir = tempDirs('hookscope-perms-');

/** Runs `fn` under a permissive umask, the usual 022, so modes cannot come from a tight one. */
async function withUmask<T>(mask: number, fn: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(previous);
  }
}

async function looseFile(path: string, content = 'x'): Promise<void> {
  await writeFile(path, content);
  await chmod(path, 0o644);
}

describe('data directory permissions', { skip: !posix && 'POSIX modes only' }, () => {
  test('tightens a 0755 data directory with 0644 files to 0700 / 0600 and reports exactly what it changed', async () => {
    const dir = await tempDir();
    await chmod(dir, 0o755);
    for (const sub of ['store', 'store/nested', 'logs']) await mkdir(join(dir, sub), { mode: 0o755 });
    for (const sub of ['store', 'store/nested', 'logs']) await chmod(join(dir, sub), 0o755);
    const engineFiles = [
      'signing-key',
      'runtime.json',
      'runtime.json.tmp',
      'tunnel.json',
      'engine.lock',
      'engine.lock.0a1b.next',
      // Written by hand or by the Settings screen, it may hold the LLM's API key.
      'config.json',
      'config.json.0a1b2c3d4e5f.tmp',
      'store/journal-000001.log',
      'store/hookscope.db',
      'store/hookscope.db.tmp',
      'store/nested/leftover',
      'logs/engine.log',
    ];
    for (const f of engineFiles) await looseFile(join(dir, f));
    // Not the engine's: the user's own file stays as it is.
    await looseFile(join(dir, 'notes.txt'));
    // Already private: not reported.
    await writeFile(join(dir, 'store', 'journal-000002.log'), '', { mode: 0o600 });
    await chmod(join(dir, 'store', 'journal-000002.log'), 0o600);

    const changes = await tightenDataDir(dir);

    const expectedDirs = ['', 'store', 'store/nested', 'logs'];
    for (const d of expectedDirs) assert.equal(await modeOf(join(dir, d)), 0o700, `${d || '.'} is 0700`);
    for (const f of [...engineFiles, 'store/journal-000002.log'])
      assert.equal(await modeOf(join(dir, f)), 0o600, `${f} is 0600`);
    assert.equal(await modeOf(join(dir, 'notes.txt')), 0o644);

    const reported = changes.map((c) => [c.path.slice(dir.length + 1), c.from, c.to] as const).sort();
    const expected = [
      ...expectedDirs.map((d) => [d, 0o755, 0o700] as const),
      ...engineFiles.map((f) => [f, 0o644, 0o600] as const),
    ].sort();
    assert.deepEqual(reported, expected);

    assert.deepEqual(await tightenDataDir(dir), [], 'a second run has nothing to change');
  });

  test("a symlinked config.json is not followed: its target is the user's own file elsewhere", async () => {
    const dir = await tempDir();
    const elsewhere = await tempDir();
    const target = join(elsewhere, 'hookscope.json');
    await looseFile(target, '{}');
    await symlink(target, join(dir, 'config.json'));
    await chmod(dir, 0o700);
    assert.deepEqual(await tightenDataDir(dir), []);
    assert.equal(await modeOf(target), 0o644);
  });

  test('describes the changes in one line naming each entry with its old and new mode', () => {
    const line = describeModeChanges('/d', [
      { path: '/d', from: 0o755, to: 0o700 },
      { path: '/d/store/journal-000001.log', from: 0o644, to: 0o600 },
    ]);
    assert.equal(
      line,
      'made 2 entries of the data directory /d private (others could read them): /d (0755 -> 0700), store/journal-000001.log (0644 -> 0600)',
    );
    assert.ok(!line.includes('\n'));
  });

  test('creates a missing data directory 0700 and reports nothing', async () => {
    const parent = await tempDir();
    const dir = join(parent, 'a', 'b');
    const changes = await withUmask(0o022, () => tightenDataDir(dir));
    assert.deepEqual(changes, []);
    assert.equal(await modeOf(dir), 0o700);
    assert.deepEqual(await readdir(dir), []);
  });

  test('private files and directories get their modes whether they existed or not, under a permissive umask', async () => {
    const dir = await tempDir();
    await withUmask(0o000, async () => {
      const existingDir = join(dir, 'existing');
      await mkdir(existingDir);
      await chmod(existingDir, 0o755);
      assert.deepEqual(await ensurePrivateDir(existingDir), { path: existingDir, from: 0o755, to: 0o700 });
      assert.equal(await modeOf(existingDir), 0o700);

      const existing = join(dir, 'existing.log');
      await looseFile(existing);
      await (await openPrivateFile(existing, 'a')).close();
      assert.equal(await modeOf(existing), 0o600);

      const fresh = join(dir, 'fresh.log');
      await (await openPrivateFile(fresh, 'a')).close();
      assert.equal(await modeOf(fresh), 0o600);

      const rewritten = join(dir, 'runtime.json.tmp');
      await looseFile(rewritten);
      await writePrivateFile(rewritten, 'new');
      assert.equal(await modeOf(rewritten), 0o600);
    });
  });
});
