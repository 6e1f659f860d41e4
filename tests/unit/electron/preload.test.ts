import assert from 'node:assert/strict';
import { DESKTOP_BRIDGE_CALLS } from '../../helpers/desktop-bridge-calls.ts';
import { readFile } from 'node:fs/promises';
import ts from 'typescript';
import { BRIDGE_CHANNELS } from '../../../electron/desktop-bridge.ts';
import { test } from '../../helpers/node-test.ts';

/**
 * Runs electron/preload.cts, compiled as CommonJS the way tsconfig.build.json does, with a stand-in for the
 * `require('electron')` a sandboxed preload gets: what it exposes, and what each method invokes.
 */
async function runPreload(): Promise<{
  exposed: [string, Record<string, (...args: unknown[]) => unknown>][];
  invoked: unknown[][];
}> {
  const source = await readFile(new URL('../../../electron/preload.cts', import.meta.url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const exposed: [string, Record<string, (...args: unknown[]) => unknown>][] = [];
  const invoked: unknown[][] = [];
  const electron = {
    contextBridge: {
      exposeInMainWorld: (name: string, api: Record<string, (...args: unknown[]) => unknown>) =>
        exposed.push([name, api]),
    },
    ipcRenderer: { invoke: async (...args: unknown[]) => invoked.push(args) },
  };
  const require = (id: string): unknown => {
    if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
    return electron;
  };
  const module = { exports: {} };
  // The compiled module body, called as CommonJS calls it, in this realm (so its objects compare by value here).
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('require', 'module', 'exports', outputText)(require, module, module.exports);
  return { exposed, invoked };
}

test('the preload exposes one object, window.hookscopeDesktop, with exactly seven calls, each one invoke on its channel', async () => {
  const { exposed, invoked } = await runPreload();
  assert.deepEqual(
    exposed.map(([name, api]) => [name, Object.keys(api)]),
    [['hookscopeDesktop', DESKTOP_BRIDGE_CALLS]],
  );
  const api = exposed[0]![1];
  await api.engine!('ignored');
  // Only the two fields are passed on, whatever else the page puts in the object.
  await api.connectTeamServer!({ url: 'https://hooks.example.com', signInLink: 'abc', extra: { evil: true } });
  await api.useThisComputer!('ignored');
  const request = {
    method: 'POST',
    url: 'http://localhost:3000/hook',
    headers: [['Host', 'localhost:3000']],
    body: 'aGk=',
    bodyEncoding: 'base64',
    timeoutMs: 1000,
  };
  await api.sendFromThisComputer!({ ...request, extra: { evil: true } });
  const forward = { endpointId: 'ep_one', targetUrl: 'http://localhost:3000/', signInCode: 'abc' };
  await api.startForwardFromThisComputer!({ ...forward, extra: { evil: true } });
  await api.stopForwardFromThisComputer!({ endpointId: 'ep_one', extra: { evil: true } });
  await api.forwardsFromThisComputer!('ignored');
  assert.deepEqual(invoked, [
    [BRIDGE_CHANNELS.engine],
    [BRIDGE_CHANNELS.connectTeamServer, { url: 'https://hooks.example.com', signInLink: 'abc' }],
    [BRIDGE_CHANNELS.useThisComputer],
    [BRIDGE_CHANNELS.sendFromThisComputer, request],
    [BRIDGE_CHANNELS.startForwardFromThisComputer, forward],
    [BRIDGE_CHANNELS.stopForwardFromThisComputer, { endpointId: 'ep_one' }],
    [BRIDGE_CHANNELS.forwardsFromThisComputer],
  ]);
});
