import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tempDir = tempDirs('hookscope-names-');

/** A file's name as a reader (and an import) meets it: `.ts` and `.tsx` are one language, so `x.ts` and `x.tsx` are one name. */
const nameOf = (path: string): string => basename(path).replace(/\.tsx?$/, '');

/** Names that more than one file under `dir` answers to, with those files. */
function sameNames(dir: string): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name));
    byName.set(nameOf(path), [...(byName.get(nameOf(path)) ?? []), path]);
  }
  return Object.fromEntries([...byName].filter(([, paths]) => paths.length > 1).map(([n, p]) => [n, p.sort()]));
}

/*
 * Components live in one folder per screen (renderer/src/components/<screen>/), stores and
 * pure helpers beside them. Two files of one name in different folders make a search, an
 * editor tab or a stack trace ambiguous, so each name is used once in renderer/src.
 */
test('no two files of the same name anywhere in renderer/src', () => {
  assert.deepEqual(sameNames(join(root, 'renderer/src')), {});
});

test('the check finds a name used twice in any two folders, .ts and .tsx alike', async () => {
  const dir = await tempDir();
  for (const file of [
    'components/detail/body-view.tsx',
    'lib/body-view.ts',
    'components/detail/body-view.test.tsx',
    'lib/deep/er/body-view.test.ts',
    'components/settings/settings-screen.tsx',
    'components/settings/settings-screen.css',
  ]) {
    await mkdir(join(dir, dirname(file)), { recursive: true });
    await writeFile(join(dir, file), '');
  }
  assert.deepEqual(sameNames(dir), {
    'body-view': ['components/detail/body-view.tsx', 'lib/body-view.ts'],
    'body-view.test': ['components/detail/body-view.test.tsx', 'lib/deep/er/body-view.test.ts'],
  });
});
