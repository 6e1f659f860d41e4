import assert from 'node:assert/strict';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// @ts-expect-error: plain JavaScript in bin/ (it must run before any TypeScript loader), without types.
import { sourcesNewerThan } from '../../../bin/build-freshness.mjs';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

// Removed once the file's tests are done.
const tempDir = tempDirs('hookscope-freshness-');

const newer = sourcesNewerThan as (dir: string, builtMs: number) => boolean;
const BUILT = Date.UTC(2026, 0, 1);

async function sourceTree(mtimes: Record<string, number>): Promise<string> {
  const dir = await tempDir();
  for (const [name, ms] of Object.entries(mtimes)) {
    const path = join(dir, name);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, '// source\n');
    await utimes(path, ms / 1000, ms / 1000);
  }
  return dir;
}

describe('bin/build-freshness.mjs: whether dist/ is older than the sources', () => {
  test('every source as old as the build or older: the build is used', async () => {
    const dir = await sourceTree({ 'a.ts': BUILT - 1000, 'deep/b/c.ts': BUILT });
    assert.equal(newer(dir, BUILT), false);
  });

  test('one source a second newer, even deep down: the sources are run', async () => {
    const dir = await sourceTree({ 'a.ts': BUILT - 1000, 'deep/b/c.ts': BUILT + 1000 });
    assert.equal(newer(dir, BUILT), true);
  });

  test('files that are not TypeScript do not count', async () => {
    const dir = await sourceTree({ 'a.ts': BUILT - 1000, 'worker-boot.mjs': BUILT + 1000, 'notes.md': BUILT + 1000 });
    assert.equal(newer(dir, BUILT), false);
  });

  test('no source folder (an installed app): the build is used', () => {
    assert.equal(newer('/nonexistent/hookscope/server/', BUILT), false);
  });
});
