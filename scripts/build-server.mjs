#!/usr/bin/env node
// `npm run build:server`: compiles server/ to JavaScript in dist/server (tsc,
// rewriting the sources' .ts imports to .js). The old output goes first, so a
// deleted source never leaves a stale module behind.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
rmSync(new URL('../dist/server', import.meta.url), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(tsc.status ?? 1);
