import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from '../../helpers/node-test.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/*
 * Dependencies between server/ folders point one way (http -> features -> store,
 * every feature -> signatures, support, errors). A folder cycle, even through a type
 * import, is what issue 9 untangled (http -> engine, auth <-> accounts, share <->
 * export, the verifiers inside receiver); the script names the imports behind one.
 */
test('no folder-level import cycle under server/', () => {
  const run = spawnSync(process.execPath, ['scripts/folder-cycles.mjs', 'server'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.stdout, 'No folder-level import cycles under server.\n', run.stdout);
  assert.equal(run.status, 0);
});
