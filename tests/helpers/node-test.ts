import { test as nodeTest, type TestOptions } from 'node:test';

export { after, afterEach, before, beforeEach, describe, mock } from 'node:test';

/**
 * Every test's own time limit, unless it declares a longer one. Node 20 applies
 * `--test-timeout` to a whole file when it runs files with `--test` (its child
 * processes never read the flag), and a `describe` timeout covers the whole
 * suite, so a per-test limit has to be on each test: tests import `test` from
 * here instead of `node:test`. A hung test then fails on its own, by name,
 * instead of a slow file being cancelled as a whole under load.
 */
export const TEST_TIMEOUT_MS = 60_000;

type TestFn = nodeTest.TestFn;

// Returns nothing: node:test's promise only says when a test finished, and the runner awaits it itself.
export function test(name: string, fn: TestFn): void;
export function test(name: string, options: TestOptions, fn: TestFn): void;
export function test(name: string, a: TestOptions | TestFn, b?: TestFn): void {
  const [options, fn] = typeof a === 'function' ? [{}, a] : [a, b];
  void nodeTest(name, { timeout: TEST_TIMEOUT_MS, ...options }, fn);
}

/** For the few tests that start many CLI processes one after another (each start loads tsx: ~1-4 s under load). */
export const SLOW_TEST_TIMEOUT_MS = 180_000;
