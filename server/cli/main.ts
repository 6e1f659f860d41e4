import { Command, CommanderError } from 'commander';
import { ApiError } from '../api-client/api-error.ts';
import { ValidationError } from '../errors/app-errors.ts';
import { ConfigError } from '../errors/config-error.ts';
import { DataDirLockedError } from '../engine/data-dir-lock.ts';
import { readVersion } from '../support/version.ts';
import { ListenError } from '../http/listen-error.ts';
import { EXIT, processIO, UsageError, type CliIO } from './cli-output.ts';
import { registerDiagnose } from './commands/diagnose.ts';
import { registerEndpoints } from './commands/endpoints.ts';
import { registerExplain } from './commands/explain.ts';
import { registerExport } from './commands/export.ts';
import { registerHistory } from './commands/history.ts';
import { registerLogin } from './commands/login.ts';
import { registerLogout } from './commands/logout.ts';
import { registerListen } from './commands/listen.ts';
import { registerLogs } from './commands/logs.ts';
import { registerOpen, type BrowserOpener } from './commands/open.ts';
import { registerReplay } from './commands/replay.ts';
import { registerServe } from './commands/serve.ts';
import { registerSettings } from './commands/settings.ts';
import { registerShare } from './commands/share.ts';
import { registerStart } from './commands/start.ts';
import { registerTail } from './commands/tail.ts';
import { registerToken } from './commands/token.ts';
import { EngineNotRunningError } from './engine-not-running-error.ts';
import { escapeControls } from './terminal-safe.ts';

// For bin/hookscope.mjs, which loads this module from the build or the sources and nothing else.
export { whenOutputCloses } from './closed-output.ts';

/** Runs the CLI and resolves to the exit code; errors a user can act on are one line, never a stack. */
/** What the CLI reaches outside the engine; tests pass their own. */
export interface CliDeps {
  /** Opens a URL in the system browser (`hookscope open`). */
  openBrowser?: BrowserOpener;
}

export async function main(argv: string[], io: CliIO = processIO, deps: CliDeps = {}): Promise<number> {
  let code: number = EXIT.ok;
  const run = async (action: () => Promise<number>): Promise<void> => {
    code = await action();
  };
  const program = new Command('hookscope')
    .description('Hookscope: capture, verify, replay and share webhooks')
    .version(readVersion().version)
    .exitOverride()
    // Commander's errors quote the flag values as given: escaped like every other error line.
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(escapeControls(s.trimEnd())) })
    .showHelpAfterError('(run with --help for usage)');
  registerServe(program, io, run);
  registerStart(program, io, run);
  registerToken(program, io, run);
  registerOpen(program, io, run, deps.openBrowser);
  registerLogin(program, io, run);
  registerLogout(program, io, run);
  registerEndpoints(program, io, run);
  registerLogs(program, io, run);
  registerTail(program, io, run);
  registerListen(program, io, run);
  registerReplay(program, io, run);
  registerHistory(program, io, run);
  registerShare(program, io, run);
  registerExport(program, io, run);
  registerDiagnose(program, io, run);
  registerExplain(program, io, run);
  registerSettings(program, io, run);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    return report(e, io);
  }
}

function report(e: unknown, raw: CliIO): number {
  // An error message can quote what a sender or a replay target sent; stderr is for people, so always escaped.
  const io: CliIO = { ...raw, err: (line) => raw.err(escapeControls(line)) };
  if (e instanceof CommanderError) {
    // Commander already printed its message; help and version are successes.
    return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (e instanceof UsageError || e instanceof ConfigError || e instanceof ValidationError) {
    io.err(`hookscope: ${e.message}`);
    return EXIT.usage;
  }
  if (e instanceof ApiError) {
    io.err(`hookscope: ${e.message} (${e.code}, HTTP ${e.status})`);
    return EXIT.failure;
  }
  if (e instanceof ListenError || e instanceof DataDirLockedError || e instanceof EngineNotRunningError) {
    io.err(`hookscope: ${e.message}`);
    return EXIT.failure;
  }
  const message = e instanceof Error ? e.message : String(e);
  io.err(`hookscope: ${message}`);
  if (io.env.HOOKSCOPE_DEBUG && e instanceof Error && e.stack) io.err(e.stack);
  return EXIT.failure;
}
