import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN } from '../helpers/cli-process.ts';
import { describe, test } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

// Removed once the file's tests are done.
const tempDir = tempDirs('hookscope-trace-');

const ROOT = new URL('../../', import.meta.url).pathname;
const TRACE = new URL('../helpers/import-trace.mjs', import.meta.url).pathname;

/** Runs `hookscope <args>` with every loaded module's URL written to a file; resolves to those URLs. */
async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const file = join(await tempDir(), 'trace.txt');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TRACE, BIN, ...args], {
      env: { ...process.env, ...env, IMPORT_TRACE_FILE: file },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  assert.equal(code, 0);
  return (await readFile(file, 'utf8')).trim().split('\n');
}

/** The npm packages among the loaded modules, by name. */
const packagesIn = (urls: string[]): string[] =>
  [
    ...new Set(
      urls.flatMap((u) => {
        const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u);
        return m ? [m[1]!] : [];
      }),
    ),
  ].sort();

describe('the compiled build and what a command loads', () => {
  test('a fresh build exists (npm run build:server, which npm install and npm test run)', () => {
    assert.ok(
      existsSync(join(ROOT, 'dist/server/cli/main.js')),
      'dist/server/cli/main.js is missing: run npm run build:server',
    );
  });

  test('`hookscope --help` runs the compiled build and loads only the CLI: no Express, sql.js, jose, tunnel or zod', async () => {
    const urls = await loadedBy(['--help']);
    assert.ok(
      urls.some((u) => u.endsWith('/dist/server/cli/main.js')),
      'the compiled entry ran',
    );
    assert.equal(
      urls.some((u) => u.includes('/server/') && u.endsWith('.ts')),
      false,
      'no TypeScript source was loaded',
    );
    assert.deepEqual(packagesIn(urls), ['cli-table3', 'commander', 'picocolors']);
  });

  test('HOOKSCOPE_FROM_SOURCE=1 runs the TypeScript sources through tsx instead', async () => {
    const urls = await loadedBy(['--help'], { HOOKSCOPE_FROM_SOURCE: '1' });
    assert.ok(
      urls.some((u) => u.endsWith('/server/cli/main.ts')),
      'the source entry ran',
    );
    assert.equal(
      urls.some((u) => u.endsWith('/dist/server/cli/main.js')),
      false,
    );
  });
});
