#!/usr/bin/env node
// Runs the test tiers with Node's own test runner under tsx.
// Usage: node scripts/run-tests.mjs [unit|contract|integration|reliability|e2e ...]
// Node 20's --test does not expand globs, so the files are listed here.
//
// Time limits: each test has its own (60 s unless it declares more; see
// tests/helpers/node-test.ts). Node 20 applies --test-timeout to a whole file,
// so it is only a backstop here, long enough that a slow file under load is
// never cancelled as a whole; it catches a hang outside any test (a hook).
//
// The run starts with `npm run build:server`, so the CLI and engine the tests
// spawn (bin/hookscope.mjs) are the compiled build users run. The unit tier also
// runs the renderer's component and store tests (vitest), and the e2e tier builds
// the renderer first, since it drives the built UI.
//
// The contract tier (tests/contract) runs each storage contract suite against
// every backend, PostgreSQL included: tests/helpers/postgres.ts starts a cluster,
// or uses HOOKSCOPE_TEST_DATABASE_URL (.ci/run exports one for the whole run).
// It then runs the integration tier's main files again with
// HOOKSCOPE_TEST_STORE=postgres: every engine they start (tests/helpers/test-engine.ts)
// is a team server on a database of its own, so the API behaves the same on both.
//
// The output streams through as TAP; the last line is `N passed, N failed`
// summed over every tier (cancelled tests count as failed), and the exit code
// is non-zero on any failure, including a tier with no test file.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const allTiers = ['unit', 'contract', 'integration', 'reliability', 'e2e'];
const tiers = process.argv.slice(2).length ? process.argv.slice(2) : allTiers;
const FILE_BACKSTOP_MS = 15 * 60 * 1000;
/** The integration files the contract tier runs again on PostgreSQL (what the API does with stored data). */
const ON_POSTGRES = ['endpoints', 'logs', 'replay', 'forward', 'share', 'session', 'settings'].map(
  (name) => `tests/integration/${name}.test.ts`,
);

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
function runTier(files, env = {}) {
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
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'test', ...env } },
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

/** Runs a command to completion with its output passed through; resolves to its exit code. */
function runCommand(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** The renderer's vitest suite; its counts come from the JSON report, its output streams through. */
async function runVitest() {
  const dir = mkdtempSync(join(tmpdir(), 'hookscope-vitest-'));
  const report = join(dir, 'report.json');
  try {
    const code = await runCommand([
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'renderer/vite.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ]);
    let r = { numPassedTests: 0, numFailedTests: 0, numTotalTestSuites: 0 };
    try {
      r = JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      // no report: the runner failed before any test; counted below
    }
    console.log(`# vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
    return { pass: r.numPassedTests, fail: r.numFailedTests, cancelled: 0, code, signal: null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const tier of tiers) {
  if (!allTiers.includes(tier)) {
    console.error(`unknown test tier "${tier}" (expected one of ${allTiers.join(', ')})`);
    process.exit(2);
  }
}

let passed = 0;
let failed = 0;
if ((await runCommand(['scripts/build-server.mjs'])) !== 0) {
  console.error('# the engine did not build (npm run build:server)');
  failed += 1;
}
for (const tier of tiers) {
  const files = collect(join(root, 'tests', tier));
  if (files.length === 0) {
    // An empty tier passing silently would hide tests that were moved or never written.
    console.error(`\n# tier ${tier}: FAILED, no test files (*.test.ts) under tests/${tier}/`);
    failed += 1;
    continue;
  }
  console.log(`\n# tier: ${tier} (${files.length} files)`);
  if (tier === 'e2e') {
    const built = await runCommand([
      'node_modules/vite/bin/vite.js',
      'build',
      '--config',
      'renderer/vite.config.ts',
      '--logLevel',
      'warn',
    ]);
    if (built !== 0) {
      console.error('# tier e2e: FAILED, the renderer did not build');
      failed += 1;
      continue;
    }
  }
  const results = [await runTier(files)];
  if (tier === 'unit') results.push(await runVitest());
  if (tier === 'contract') {
    console.log(`\n# tier: contract, integration files on PostgreSQL (${ON_POSTGRES.length} files)`);
    results.push(await runTier(ON_POSTGRES, { HOOKSCOPE_TEST_STORE: 'postgres' }));
  }
  for (const r of results) {
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
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
