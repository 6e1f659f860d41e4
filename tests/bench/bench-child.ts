import { readFile } from 'node:fs/promises';
// Servers under test run in child processes, so they never share an event loop (or
// a core's time slice) with the load generator. Parent and child talk over IPC:
// the child announces itself once ready, then answers named calls.
import { fork, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

type Handlers = Record<string, (arg: unknown) => Promise<unknown>>;
type ChildMessage = { type: 'ready'; data: unknown } | { type: 'reply'; id: number; result?: unknown; error?: string };

export interface ChildHandle<Ready> {
  ready: Ready;
  pid: number;
  call<T>(cmd: string, arg?: unknown, timeoutMs?: number): Promise<T>;
  /** Asks the child to stop cleanly, then kills it if it has not exited in time. */
  stop(timeoutMs?: number): Promise<void>;
  /** Ends the child at once (SIGKILL), for when a clean stop would wait on work nobody needs. */
  kill(): Promise<void>;
}

const ROOT = new URL('../../', import.meta.url);

/**
 * Compiles the servers under test as the product ships (`npm run build:server`), and the
 * benchmark's child scripts with them (tsconfig.bench.json, into dist/tests/bench): the
 * children run that JavaScript, not the sources through tsx, whose loader threads (one
 * for the main thread, one for the store's worker) added about 54 MB of resident memory
 * and some CPU to every figure the engine's process gave.
 */
export function buildBenchChildren(): void {
  for (const args of [
    ['npm', ['run', '--silent', 'build:server']],
    [process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json']],
  ] as const) {
    const run = spawnSync(args[0], args[1], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${args[1].join(' ')} failed: ${run.stderr}${run.stdout}`);
  }
}

/** Where buildBenchChildren() put `script` (tests/bench/x.ts -> dist/tests/bench/x.js). */
function compiled(script: URL): URL {
  const relative = script.pathname.slice(ROOT.pathname.length).replace(/\.ts$/, '.js');
  const url = new URL(`dist/${relative}`, ROOT);
  if (!existsSync(url))
    throw new Error(`${url.pathname} is missing: run buildBenchChildren() first (npm run bench does)`);
  return url;
}

/**
 * Forks the compiled `script` (buildBenchChildren) with `input` (JSON in BENCH_INPUT) and
 * waits for its ready message. With BENCH_CPU_PROF=<dir> set, each child writes V8 CPU
 * profiles there (main thread and workers), to see where the time goes (open them in
 * Chrome DevTools).
 */
export async function startChild<Ready>(
  script: URL,
  input: unknown,
  readyTimeoutMs = 60_000,
): Promise<ChildHandle<Ready>> {
  const child = fork(compiled(script), [], {
    execArgv: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
    env: { ...process.env, BENCH_INPUT: JSON.stringify(input) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pid = child.pid!;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;

  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script.pathname} was not ready within ${readyTimeoutMs} ms`)),
      readyTimeoutMs,
    );
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m.data as Ready);
      } else {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.error !== undefined) p?.reject(new Error(m.error));
        else p?.resolve(m.result);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script.pathname} exited (${code}) before it was ready`));
      for (const p of pending.values()) p.reject(new Error(`child exited (${code})`));
    });
  }).catch(async (e: unknown) => {
    if (child.exitCode === null) process.kill(pid, 'SIGKILL');
    await exited;
    throw e;
  });

  const call = <T>(cmd: string, arg?: unknown, timeoutMs = 120_000): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`child call ${cmd} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.send({ id, cmd, arg });
    });

  const stop = async (timeoutMs = 60_000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await call('stop', undefined, timeoutMs).catch((e: unknown) => console.error(`bench: ${String(e)}`));
    const killer = setTimeout(() => {
      if (child.exitCode === null) process.kill(pid, 'SIGKILL');
    }, 10_000);
    await exited;
    clearTimeout(killer);
  };

  const kill = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(pid, 'SIGKILL');
    await exited;
  };

  return { ready, pid, call, stop, kill };
}

/**
 * The child's side: announce `ready`, answer calls with `handlers`. `stop` is
 * answered and then the process exits; losing the parent stops it too, and a
 * lifetime cap ends it whatever happens, so no child outlives the benchmark.
 */
export function answerParent(
  ready: unknown,
  handlers: Handlers & { stop: () => Promise<unknown> },
  maxLifetimeMs = 15 * 60_000,
): void {
  const send = (m: ChildMessage, then?: () => void): void => {
    process.send!(m, undefined, {}, () => then?.());
  };
  setTimeout(() => process.exit(3), maxLifetimeMs).unref();
  process.on('disconnect', () => {
    void handlers.stop().finally(() => process.exit(2));
  });
  process.on('message', (m: { id: number; cmd: string; arg: unknown }) => {
    const handler = m.cmd === 'cpu' ? cpuSoFar : m.cmd === 'cpu-main' ? mainThreadCpu : handlers[m.cmd];
    const run = handler ? handler(m.arg) : Promise.reject(new Error(`unknown call ${m.cmd}`));
    run.then(
      (result) => send({ type: 'reply', id: m.id, result }, m.cmd === 'stop' ? () => process.exit(0) : undefined),
      (e: unknown) => send({ type: 'reply', id: m.id, error: e instanceof Error ? e.message : String(e) }),
    );
  });
  send({ type: 'ready', data: ready });
}

/** Every child answers `cpu`: its process's CPU time so far (user + system, in microseconds). */
async function cpuSoFar(): Promise<number> {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Every child answers `cpu-main`: the CPU time of its main thread alone so far, in
 * microseconds (Linux's /proc, in clock ticks of 10 ms: about 1% of a 10 s run at
 * full load). The engine's main thread is its HTTP side; the rest of the process is
 * the store's worker, file I/O on libuv's pool and V8's helpers (Node 20 has no
 * per-thread CPU call of its own).
 */
async function mainThreadCpu(): Promise<number> {
  const stat = await readFile(`/proc/self/task/${process.pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
}

/** The JSON a parent passed to this child. */
export function childInput<T>(): T {
  return JSON.parse(process.env.BENCH_INPUT ?? 'null') as T;
}
