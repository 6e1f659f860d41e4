import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { BRIDGE_KEY } from '../../../electron/desktop-bridge.ts';
import { test } from '../../helpers/node-test.ts';

const SOURCE = new URL('../../../electron/preload.cts', import.meta.url);

/**
 * The preload as a sandboxed window runs it: a CommonJS script whose `require`
 * knows a few modules only. Compiled the way the build compiles it (.cts ->
 * CommonJS), then run with a stand-in `require` that records what it is asked for.
 */
test('the preload requires only electron and exposes exactly { desktop, platform } under the bridge key', async () => {
  const js = ts.transpileModule(await readFile(SOURCE, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    fileName: 'preload.cts',
  }).outputText;
  const required: string[] = [];
  const exposed: [string, unknown][] = [];
  const fakeElectron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
  };
  const module = { exports: {} };
  runInNewContext(js, {
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return fakeElectron;
    },
    module,
    exports: module.exports,
    process: { platform: 'darwin' },
  });
  assert.deepEqual(required, ['electron']);
  // Made in the script's own realm: compared by value.
  assert.deepEqual(JSON.parse(JSON.stringify(exposed)), [[BRIDGE_KEY, { desktop: true, platform: 'darwin' }]]);
});
