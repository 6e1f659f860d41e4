import { createRequire } from 'node:module';
import type { Command } from 'commander';
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

/** Why Electron cannot start here, or null when it might. */
export function electronUnavailableReason(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  try {
    createRequire(import.meta.url).resolve('electron');
  } catch {
    return 'the electron package is not installed';
  }
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'there is no display (DISPLAY is not set)';
  return 'the desktop shell is not built yet';
}

export async function start(opts: ServeOptions, io: CliIO): Promise<number> {
  const reason = electronUnavailableReason(io.env, process.platform);
  if (reason) io.out(`Electron cannot start (${reason}); running the engine headless instead.`);
  const { serve } = await import('./serve-run.ts');
  return serve(opts, io);
}
