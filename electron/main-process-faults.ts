import { exitOnFatalErrors, type FatalLog, type ProcessEvents } from '../server/support/logger-process.ts';

export interface FatalExitDeps {
  /** `dialog.showErrorBox`: the app has no console anyone reads. */
  showError(title: string, content: string): void;
  /** `app.exit`: ends at once, without `before-quit` (the state is unknown after such an error). */
  exit(code: number): void;
}

export const FATAL_TITLE = 'Hookscope stopped after an unexpected error';

/**
 * The main process's last resort, as in `hookscope serve`: an error no code
 * caught (an uncaught exception, an unhandled rejection) is logged at fatal with
 * its stack in the engine's log, the log is flushed, then the user is told where
 * to find it and the app exits 1. Acknowledged deliveries are already in the
 * journal, so nothing is lost without a checkpoint. Electron would otherwise show
 * its own dialog with the stack and carry on in an unknown state, and the stack
 * would be written nowhere. Returns the function that removes the handlers.
 */
export function exitOnMainProcessFaults(
  proc: ProcessEvents,
  log: FatalLog & { file: string },
  deps: FatalExitDeps,
): () => void {
  return exitOnFatalErrors(proc, log, (code) => {
    deps.showError(FATAL_TITLE, `The details are in ${log.file}.`);
    deps.exit(code);
  });
}
