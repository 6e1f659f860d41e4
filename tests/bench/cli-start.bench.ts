// How fast the command starts, as a user runs it from the compiled build:
// `hookscope --help` to its exit, and `hookscope serve` on an empty data
// directory to runtime.json (both listeners up).
import { spawn, spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { makeTempDir } from '../helpers/temp-dir.ts';
import { timeCliStartup } from './cli-startup.ts';
import { summarize, type Timings } from './timing.ts';

export interface CliStartResult {
  help: Timings;
  serveEmpty: Timings;
}

const ROOT = new URL('../../', import.meta.url).pathname;
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

/** `npm run build:server`: start-ups are timed on the compiled build, as users run it. */
export function buildServer(): void {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:server failed: ${build.stderr}${build.stdout}`);
}

export async function benchCliStart(o: { runs: number }, log: (line: string) => void): Promise<CliStartResult> {
  log('cli: building the engine (npm run build:server), then timing --help and serve on an empty data directory');
  buildServer();
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
