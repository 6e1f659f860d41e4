// PACKAGING TEST (about 10-20 s): electron-builder's `--dir` target, run for real
// with build/electron-builder.yml, then the produced app.asar is read back.
//
// Electron's binary cannot be downloaded on the machines that run this suite, so
// electron-builder's `electronDist` points at a STAND-IN directory (made below):
// electron-builder copies that directory as the app's runtime, renames its
// `electron` executable to the app's and flips the fuses of electronFuses in it
// (@electron/fuses finds the fuse wire after a sentinel, so the stand-in carries
// one, set as Electron ships it), and needs nothing else from it for the
// unpacked target. What it checks is our part: what goes into app.asar, and the
// fuses of the packaged binary. That Electron honours its fuses, and the asar
// header hash a macOS or Windows build embeds, can only be seen on those builds.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import asar from '@electron/asar';
// Types only: the module itself is loaded below, through electron-builder.
import type * as Fuses from '@electron/fuses';
import ts from 'typescript';
import { before, describe, test } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const newDir = tempDirs('hookscope-packaging-');
const PACKAGING_TIMEOUT_MS = 180_000;

/**
 * @electron/fuses as electron-builder itself loads it (its dependency, reached
 * through it): the same reader and constants as the writer that flipped them.
 */
const requireFrom = (from: string): NodeJS.Require =>
  createRequire(createRequire(import.meta.url).resolve(`${from}/package.json`));
const requireFuses = createRequire(requireFrom('electron-builder').resolve('app-builder-lib/package.json'));
const fuses = requireFuses('@electron/fuses') as typeof Fuses;
// The states and the sentinel the wire starts after (its index does not export them).
const { FuseState, SENTINEL } = requireFuses('@electron/fuses/dist/constants.js') as {
  FuseState: { ENABLE: number; DISABLE: number } & Record<number, string>;
  SENTINEL: string;
};
const { FuseV1Options, FuseVersion } = fuses;

/** The fuse wire as Electron ships it (every fuse at its default), in wire order. */
const SHIPPED_FUSES: Record<number, number> = {
  [FuseV1Options.RunAsNode]: FuseState.ENABLE,
  [FuseV1Options.EnableCookieEncryption]: FuseState.DISABLE,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: FuseState.ENABLE,
  [FuseV1Options.EnableNodeCliInspectArguments]: FuseState.ENABLE,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: FuseState.DISABLE,
  [FuseV1Options.OnlyLoadAppFromAsar]: FuseState.DISABLE,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: FuseState.DISABLE,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: FuseState.ENABLE,
};

/**
 * The stand-in for Electron's binary distribution: an `electron` that only says
 * what it is, followed by a fuse wire (sentinel, version, length, one byte per fuse).
 */
async function electronStandIn(): Promise<string> {
  const dir = await newDir();
  const exe = join(dir, 'electron');
  const wire = Object.keys(SHIPPED_FUSES).map((i) => SHIPPED_FUSES[Number(i)]!);
  await writeFile(
    exe,
    Buffer.concat([
      Buffer.from('#!/bin/sh\necho "stand-in for the Electron binary (packaging test); it runs nothing" >&2\nexit 1\n'),
      Buffer.from(SENTINEL),
      Buffer.from([Number(FuseVersion.V1), wire.length, ...wire]),
    ]),
  );
  await chmod(exe, 0o755);
  await writeFile(join(dir, 'version'), (await packageVersionOf('electron')) + '\n');
  return dir;
}

async function packageVersionOf(name: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** Runs a command in the package root; rejects with its output on failure. */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, CI: 'true' } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}:\n${out}`))));
  });
}

/**
 * The relative and bare specifiers one compiled module loads (static and dynamic
 * imports, require()), found by TypeScript's scanner, which skips strings and
 * templates (a code snippet in a template literal is not an import).
 */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** `zod/v4` -> `zod`, `@n8n/localtunnel/x` -> `@n8n/localtunnel`. */
const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('packaging: electron-builder --dir with a stand-in Electron, then app.asar read back', () => {
  let archive = '';
  let entries = new Set<string>();
  let unpackedDir = '';
  let executable = '';
  const read = (path: string): string => asar.extractFile(archive, path).toString('utf8');

  before(
    async () => {
      // The app is packaged from the build: make it if this file runs on its own.
      if (!existsSync(join(ROOT, 'dist/electron/main.js'))) await run(process.execPath, ['scripts/build-server.mjs']);
      if (!existsSync(join(ROOT, 'renderer/dist/index.html'))) await run('npm', ['run', 'build:renderer']);
      const out = await newDir();
      await run(process.execPath, [
        'node_modules/electron-builder/cli.js',
        '--config',
        'build/electron-builder.yml',
        '--dir',
        '--linux',
        `-c.electronDist=${await electronStandIn()}`,
        `-c.directories.output=${out}`,
      ]);
      const appDir = join(out, process.arch === 'x64' ? 'linux-unpacked' : `linux-${process.arch}-unpacked`);
      executable = join(appDir, 'hookscope');
      const resources = join(appDir, 'resources');
      archive = join(resources, 'app.asar');
      unpackedDir = join(resources, 'app.asar.unpacked');
      entries = new Set(
        asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/^[\\/]/, '').replaceAll('\\', '/')),
      );
    },
    { timeout: PACKAGING_TIMEOUT_MS },
  );

  test("the package's main is the compiled main process, and every module it imports is in the archive", () => {
    const pkg = JSON.parse(read('package.json')) as { main: string; productName: string; name: string };
    assert.equal(pkg.main, 'dist/electron/main.js');
    assert.equal(pkg.productName, 'Hookscope');
    // Walk the import graph from the entry points: relative imports must be files of the
    // archive, package imports packages of its node_modules.
    const roots = [pkg.main, 'dist/server/store/store-worker.js', 'dist/server/cli/main.js'];
    const seen = new Set<string>();
    const packages = new Set<string>();
    const queue = [...roots];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      assert.ok(entries.has(file), `${file} is in app.asar`);
      seen.add(file);
      for (const spec of importsOf(read(file))) {
        if (spec.startsWith('.')) queue.push(posix.join(posix.dirname(file), spec));
        else if (!spec.startsWith('node:') && spec !== 'electron') packages.add(packageName(spec));
      }
    }
    assert.ok(seen.size > 100, `the engine's modules were reached (${seen.size})`);
    for (const name of packages) assert.ok(entries.has(`node_modules/${name}/package.json`), `${name} is packaged`);
    for (const name of ['express', 'sql.js', 'jose', '@n8n/localtunnel', 'zod']) assert.ok(packages.has(name), name);
  });

  test('the shell, the engine and the built renderer are in it; one preload, the desktop bridge', () => {
    for (const file of [
      'dist/electron/main.js',
      'dist/server/engine/engine.js',
      'dist/server/store/store-worker.js',
      'renderer/dist/index.html',
      'electron/icons/icon.png',
      'electron/icons/tray.png',
      'electron/icons/tray@2x.png',
    ]) {
      assert.ok(entries.has(file), file);
    }
    const html = read('renderer/dist/index.html');
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => `renderer/dist/${m[1]!}`);
    assert.ok(assets.length >= 2, 'index.html names its script and style');
    for (const asset of assets) assert.ok(entries.has(asset), asset);
    // The window's one preload (electron/web-preferences.ts), compiled as CommonJS: a sandboxed preload cannot be
    // an ES module. The UI still reaches the engine over HTTP only; the preload adds the engine switch.
    assert.deepEqual(
      [...entries].filter((p) => p.startsWith('dist/') && /preload/.test(p)),
      ['dist/electron/preload.cjs'],
    );
    assert.match(read('dist/electron/preload.cjs'), /exposeInMainWorld\('hookscopeDesktop'/);
  });

  test("the packaged binary's fuses: only this app, from its asar, checked; no Node, NODE_OPTIONS or inspector", async () => {
    const wire = await fuses.getCurrentFuseWire(executable);
    const named = (states: Record<number, number>): Record<string, string> =>
      Object.fromEntries(
        Object.keys(SHIPPED_FUSES).map((i) => [FuseV1Options[Number(i)], FuseState[states[Number(i)]!]]),
      );
    assert.equal(wire.version, FuseVersion.V1);
    assert.deepEqual(named(wire as unknown as Record<number, number>), {
      RunAsNode: 'DISABLE',
      EnableCookieEncryption: 'DISABLE',
      EnableNodeOptionsEnvironmentVariable: 'DISABLE',
      EnableNodeCliInspectArguments: 'DISABLE',
      EnableEmbeddedAsarIntegrityValidation: 'ENABLE',
      OnlyLoadAppFromAsar: 'ENABLE',
      LoadBrowserProcessSpecificV8Snapshot: 'DISABLE',
      GrantFileProtocolExtraPrivileges: 'DISABLE',
    });
    // Each of the six set by the config was shipped the other way: it was flipped, not found so.
    assert.deepEqual(named(SHIPPED_FUSES), {
      RunAsNode: 'ENABLE',
      EnableCookieEncryption: 'DISABLE',
      EnableNodeOptionsEnvironmentVariable: 'ENABLE',
      EnableNodeCliInspectArguments: 'ENABLE',
      EnableEmbeddedAsarIntegrityValidation: 'DISABLE',
      OnlyLoadAppFromAsar: 'DISABLE',
      LoadBrowserProcessSpecificV8Snapshot: 'DISABLE',
      GrantFileProtocolExtraPrivileges: 'ENABLE',
    });
  });

  test("sql.js's wasm sits outside the archive, as a plain file the store's worker reads", async () => {
    const wasm = 'node_modules/sql.js/dist/sql-wasm.wasm';
    assert.equal((asar.statFile(archive, wasm) as { unpacked?: boolean }).unpacked, true);
    const bytes = await readFile(join(unpackedDir, wasm));
    assert.deepEqual([...bytes.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'a WebAssembly module');
    assert.ok(entries.has('node_modules/sql.js/dist/sql-wasm.js'));
    assert.equal(entries.has('node_modules/sql.js/dist/sql-asm-debug.js'), false, "sql.js's other builds stay out");
  });

  test('no TypeScript sources, tests, benchmarks, scripts, docs or development dependencies', async () => {
    const all = [...entries];
    for (const prefix of ['server/', 'tests/', 'scripts/', 'docs/', 'bin/', 'build/', 'renderer/src/', 'release/']) {
      assert.deepEqual(
        all.filter((p) => p.startsWith(prefix)),
        [],
        prefix,
      );
    }
    assert.deepEqual(
      all.filter((p) => /\.(ts|cts|mts|tsx)$/.test(p)),
      [],
      'TypeScript files',
    );
    assert.deepEqual(
      all.filter((p) => p.startsWith('electron/') && !p.startsWith('electron/icons')),
      [],
    );
    const devDependencies = Object.keys(
      (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
        .devDependencies,
    );
    assert.ok(devDependencies.includes('electron') && devDependencies.includes('typescript'));
    for (const name of devDependencies) assert.equal(entries.has(`node_modules/${name}`), false, name);
    // The renderer's libraries are bundled by Vite into renderer/dist, and are development dependencies
    // for that reason (no hand-written exclusion in the builder's config): the archive does not carry them twice.
    for (const name of [
      'react',
      'react-dom',
      'scheduler',
      'zustand',
      'uplot',
      'react-json-view-lite',
      '@tanstack/react-virtual',
      '@tanstack/virtual-core',
    ]) {
      assert.deepEqual(
        all.filter((p) => p.startsWith(`node_modules/${name}/`) || p === `node_modules/${name}`),
        [],
        name,
      );
    }
  });
});
