import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { appRoot } from '../../support/app-root.ts';
import type { CliIO } from '../cli-output.ts';
import { portArg } from '../option-parsers.ts';
import type { ServeOptions } from './serve.ts';

export function registerStart(
  program: Command,
  io: CliIO,
  run: (action: () => Promise<number>) => Promise<void>,
): void {
  program
    .command('start')
    .description('Start the desktop app, or the headless engine where Electron cannot start')
    .option('--data-dir <dir>', 'data directory')
    .option('--api-port <n>', 'API port (default 4680)', portArg)
    .option('--receiver-port <n>', 'receiver port (default 4681)', portArg)
    .action((opts: ServeOptions) => run(() => start(opts, io)));
}

/** What `start` found out about Electron on this machine (probeElectron). */
export interface ElectronProbe {
  /** The electron npm package is installed (a development dependency). */
  installed: boolean;
  /** Its executable, when the binary has been downloaded; null otherwise. */
  binary: string | null;
  /** The compiled main process (package.json `main`, dist/electron/main.js) exists. */
  shellBuilt: boolean;
}

export interface StartSituation extends ElectronProbe {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Running as root (uid 0), where Chromium refuses to start with its sandbox on. */
  root: boolean;
}

export type StartPlan = { kind: 'electron'; binary: string } | { kind: 'headless'; reason: string };

/**
 * Whether `npm start` can open the desktop app, or why not, in words for the
 * one line it prints before running the engine headless. Electron is never
 * downloaded here: the electron package (42 and later) fetches its binary on
 * the first `require('electron')`, which would hang or fail offline, so a
 * missing binary is a reason like the others.
 */
export function startPlan(s: StartSituation): StartPlan {
  const headless = (reason: string): StartPlan => ({ kind: 'headless', reason });
  if (s.env.HOOKSCOPE_HEADLESS === '1') return headless('HOOKSCOPE_HEADLESS=1 is set');
  if (!s.installed) return headless('the electron package is not installed; `npm install` installs it');
  if (s.binary === null) return headless("Electron's binary is not downloaded; `npx install-electron` downloads it");
  if (!s.shellBuilt) return headless('the desktop shell is not built; `npm run build` builds it');
  if (s.platform === 'linux' && !s.env.DISPLAY && !s.env.WAYLAND_DISPLAY) {
    return headless('there is no display: neither DISPLAY nor WAYLAND_DISPLAY is set');
  }
  if (s.platform === 'linux' && s.root) return headless("Electron's sandbox does not run as root");
  return { kind: 'electron', binary: s.binary };
}

/**
 * Where the electron package is and whether its binary is there, read from the
 * files its own index.js reads (`path.txt`, then `dist/<path>`, or
 * ELECTRON_OVERRIDE_DIST_PATH) without loading that index.js, which would
 * start the download. `pkgDir` defaults to the installed package's folder.
 */
export function probeElectron(
  env: NodeJS.ProcessEnv,
  pkgDir: string | null = electronPackageDir(),
  mainFile: string = shellMain(),
): ElectronProbe {
  const shellBuilt = existsSync(mainFile);
  if (pkgDir === null) return { installed: false, binary: null, shellBuilt };
  let relative: string | null = null;
  try {
    relative = readFileSync(join(pkgDir, 'path.txt'), 'utf8').trim() || null;
  } catch {
    // not downloaded yet
  }
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override
    ? join(override, relative ?? 'electron')
    : relative === null
      ? null
      : join(pkgDir, 'dist', relative);
  return { installed: true, binary: binary !== null && existsSync(binary) ? binary : null, shellBuilt };
}

function electronPackageDir(): string | null {
  try {
    // package.json, not the package's main: resolving it runs nothing.
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** The root package's `main`: the compiled main process Electron runs. */
function shellMain(): string {
  const root = appRoot(import.meta.url);
  const main = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main?: string }).main;
  return join(root, main ?? 'dist/electron/main.js');
}

/**
 * The desktop app's environment: `start`'s flags become the variables the main
 * process resolves its engine configuration from, as `serve` would. Without
 * ELECTRON_RUN_AS_NODE, which would make the binary a plain Node.
 */
export function electronEnv(opts: ServeOptions, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  delete out.ELECTRON_RUN_AS_NODE;
  if (opts.dataDir !== undefined) out.HOOKSCOPE_DATA_DIR = resolve(opts.dataDir);
  if (opts.apiPort !== undefined) out.HOOKSCOPE_API_PORT = String(opts.apiPort);
  if (opts.receiverPort !== undefined) out.HOOKSCOPE_RECEIVER_PORT = String(opts.receiverPort);
  return out;
}

export async function start(opts: ServeOptions, io: CliIO): Promise<number> {
  const plan = startPlan({
    ...probeElectron(io.env),
    env: io.env,
    platform: process.platform,
    root: process.getuid?.() === 0,
  });
  if (plan.kind === 'electron') {
    const code = await launchElectron(plan.binary, opts, io);
    if (code !== null) return code;
  } else {
    io.out(`Electron cannot start (${plan.reason}); running the engine headless instead.`);
  }
  const { serve } = await import('./serve-run.ts');
  return serve(opts, io);
}

/**
 * Runs the desktop app (Electron on the package folder, whose `main` is the
 * compiled main process) until it exits; resolves to its exit code, or to null
 * when the binary could not be started at all (then `start` runs headless).
 */
export function launchElectron(binary: string, opts: ServeOptions, io: CliIO): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(binary, [appRoot(import.meta.url)], { stdio: 'inherit', env: electronEnv(opts, io.env) });
    // Ctrl+C goes to the whole terminal group: Electron quits on it (with a checkpoint), and this
    // process waits for that instead of dying first. SIGTERM is for this process alone: passed on.
    const waitForChild = (): void => undefined;
    const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
    process.on('SIGINT', waitForChild);
    process.on('SIGTERM', forward);
    let settled = false;
    const settle = (result: number | null): void => {
      if (settled) return;
      settled = true;
      process.off('SIGINT', waitForChild);
      process.off('SIGTERM', forward);
      done(result);
    };
    child.on('error', (err) => {
      io.out(`Electron cannot start (${err.message}); running the engine headless instead.`);
      settle(null);
    });
    child.on('exit', (code, signal) => settle(code ?? (signal ? 1 : 0)));
  });
}
