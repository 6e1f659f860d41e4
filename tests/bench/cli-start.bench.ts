// How fast the command starts, as a user runs it from the compiled build:
// `hookscope --help` to its exit, and `hookscope serve` on an empty data
// directory to runtime.json (both listeners up).
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { timeCliStartup } from './cli-startup.ts';
import { summarize, type Timings } from './timing.ts';

export interface CliStartResult {
  help: Timings;
  serveEmpty: Timings;
}

const BIN = new URL('../../bin/hookscope.mjs', import.meta.url).pathname;

function timeHelp(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`hookscope --help exited ${code}`)),
    );
  });
}

/** Start-ups are timed on the compiled build (run.ts builds it first), as users run it. */
export async function benchCliStart(o: { runs: number }, log: (line: string) => void): Promise<CliStartResult> {
  log('cli: timing --help and serve on an empty data directory (the build run.ts made)');
  await timeHelp(); // the first run after a build pays for the file cache; not counted
  const help: number[] = [];
  for (let i = 0; i < o.runs; i++) help.push(await timeHelp());
  const serve: number[] = [];
  for (let i = 0; i < o.runs; i++) {
    const dir = await makeTempDir('hookscope-bench-start-');
    try {
      serve.push(await timeCliStartup(dir, {}));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { help: summarize(help), serveEmpty: summarize(serve) };
}
