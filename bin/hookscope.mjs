#!/usr/bin/env node
// Entry point of the `hookscope` command. It runs the compiled engine in dist/
// (`npm run build`, which `npm install` runs through `prepare`). Without a build,
// with sources newer than the build (a checkout being edited), or with
// HOOKSCOPE_FROM_SOURCE=1, it runs the TypeScript sources through tsx's loader
// (a development dependency) instead, so what runs is never older than the code.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sourcesNewerThan } from './build-freshness.mjs';

const compiled = new URL('../dist/server/cli/main.js', import.meta.url);
const sources = fileURLToPath(new URL('../server/', import.meta.url));
const useBuild =
  process.env.HOOKSCOPE_FROM_SOURCE !== '1' &&
  existsSync(compiled) &&
  !sourcesNewerThan(sources, statSync(compiled).mtimeMs);

let cli;
if (useBuild) {
  cli = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../server/cli/main.ts');
}
// `hookscope logs list | head -1`: a reader that closed early ends a command quietly with 0.
// A running engine (serve, start) keeps receiving: its log file still gets every line.
const runsEngine = ['serve', 'start'].includes(process.argv[2] ?? '');
cli.whenOutputCloses([process.stdout, process.stderr], runsEngine ? () => undefined : () => process.exit(0));
process.exitCode = await cli.main(process.argv.slice(2));
