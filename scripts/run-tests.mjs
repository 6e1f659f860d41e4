#!/usr/bin/env node
// Runs the test tiers with Node's own test runner under tsx.
// Usage: node scripts/run-tests.mjs [unit|integration|reliability|e2e ...]
// Node 20's --test does not expand globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const allTiers = ['unit', 'integration', 'reliability', 'e2e'];
const tiers = process.argv.slice(2).length ? process.argv.slice(2) : allTiers;

function collect(dir) {
  let out = [];
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(collect(p));
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

let failed = false;
for (const tier of tiers) {
  if (!allTiers.includes(tier)) {
    console.error(`unknown test tier "${tier}" (expected one of ${allTiers.join(', ')})`);
    process.exit(2);
  }
  const files = collect(join(root, 'tests', tier));
  if (files.length === 0) continue;
  console.log(`\n# tier: ${tier} (${files.length} files)`);
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
  );
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
