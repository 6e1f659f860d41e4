#!/usr/bin/env node
// Runs the test tiers with Node's own test runner under tsx.
// Usage: node scripts/run-tests.mjs [unit|integration|reliability|e2e ...]
// Node 20's --test does not expand globs, so the files are listed here.
//
// Time limits: each test has its own (60 s unless it declares more; see
// tests/helpers/node-test.ts). Node 20 applies --test-timeout to a whole file,
// so it is only a backstop here, long enough that a slow file under load is
// never cancelled as a whole; it catches a hang outside any test (a hook).
//
// The output streams through as TAP; the last line is `N passed, N failed`
// summed over every tier (cancelled tests count as failed), and the exit code
// is non-zero on any failure, including a tier with no test file.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const allTiers = ['unit', 'integration', 'reliability', 'e2e'];
const tiers = process.argv.slice(2).length ? process.argv.slice(2) : allTiers;
const FILE_BACKSTOP_MS = 15 * 60 * 1000;

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

/** Runs one tier, streaming its TAP output, and resolves to the counts from its closing summary. */
function runTier(files) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=tap',
        '--test-concurrency=2',
        `--test-timeout=${FILE_BACKSTOP_MS}`,
        ...files,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'test' } },
    );
    const counts = { pass: 0, fail: 0, cancelled: 0 };
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      process.stdout.write(`${line}\n`);
      const m = /^# (pass|fail|cancelled) (\d+)$/.exec(line);
      if (m) counts[m[1]] += Number(m[2]);
    });
    child.on('close', (code, signal) => {
      lines.close();
      resolve({ ...counts, code: code ?? 1, signal });
    });
  });
}

for (const tier of tiers) {
  if (!allTiers.includes(tier)) {
    console.error(`unknown test tier "${tier}" (expected one of ${allTiers.join(', ')})`);
    process.exit(2);
  }
}

let passed = 0;
let failed = 0;
for (const tier of tiers) {
  const files = collect(join(root, 'tests', tier));
  if (files.length === 0) {
    // An empty tier passing silently would hide tests that were moved or never written.
    console.error(`\n# tier ${tier}: FAILED, no test files (*.test.ts) under tests/${tier}/`);
    failed += 1;
    continue;
  }
  console.log(`\n# tier: ${tier} (${files.length} files)`);
  const r = await runTier(files);
  passed += r.pass;
  failed += r.fail + r.cancelled;
  if (r.code !== 0 && r.fail + r.cancelled === 0) {
    // The runner itself failed (crash, signal) without reporting a failed test.
    console.error(
      `# tier ${tier}: the test runner exited with ${r.signal ?? `code ${r.code}`} without a summary of failures`,
    );
    failed += 1;
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
