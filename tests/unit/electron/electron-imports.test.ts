import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { test } from '../../helpers/node-test.ts';

const eslint = new ESLint();

/** The messages of the import rules for `line` as if it were in `file`. */
async function importProblems(file: string, line: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${line}\nexport const used = [x];\n`, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.message);
}

/*
 * Loading the electron package starts a download of its binary, so only the
 * main process may import it at run time; every other file of the shell takes
 * its types, which keeps them importable by these unit tests.
 */
test('in electron/, only main.ts loads Electron; the other files take its types only', async () => {
  assert.equal((await importProblems('electron/tray-menu.ts', "import { Menu as x } from 'electron';")).length, 1);
  assert.deepEqual(await importProblems('electron/tray-menu.ts', "import type { Menu as x } from 'electron';"), []);
  assert.deepEqual(await importProblems('electron/main.ts', "import { app as x } from 'electron';"), []);
});
