// Start-up as a user sees it: from spawning `hookscope serve` on a data directory
// to the engine's runtime.json appearing (written once both listeners are up).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/hookscope.mjs', import.meta.url));

async function runtimePid(dataDir: string): Promise<number | null> {
  try {
    return (JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return null; // not there yet, or caught mid-rename
  }
}

/** One start: milliseconds from spawn to runtime.json naming the new process; then a clean stop. */
export async function timeCliStartup(
  dataDir: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<number> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--data-dir', dataDir, '--api-port', '0', '--receiver-port', '0', '--no-tunnel'],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if ((await runtimePid(dataDir)) === child.pid) return performance.now() - t0;
      if (child.exitCode !== null)
        throw new Error(`hookscope serve exited (${child.exitCode}) before writing runtime.json`);
      if (performance.now() - t0 > timeoutMs) throw new Error(`hookscope serve did not start within ${timeoutMs} ms`);
      await sleep(5);
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    }, 60_000);
    await exited;
    clearTimeout(killer);
  }
}
