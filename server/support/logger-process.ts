import type { Logger } from 'pino';

/** The part of `process` these handlers use (a plain EventEmitter in tests). */
export interface ProcessEvents {
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (err: unknown) => void): unknown;
  off(event: 'uncaughtException' | 'unhandledRejection', listener: (err: unknown) => void): unknown;
}

export interface FatalLog {
  logger: Logger;
  /** Flushes and closes the log. */
  close(): Promise<void>;
}

/**
 * In the long-running engine process (`hookscope serve`, `start`), an error no
 * code caught is logged at fatal with its stack, the log is flushed, and the
 * process exits 1. Without this, Node prints the stack to a stderr nobody reads
 * under the desktop app. Acknowledged deliveries are already in the journal, so
 * exiting without a checkpoint loses nothing. Returns the function that removes
 * the handlers.
 */
export function exitOnFatalErrors(
  proc: ProcessEvents,
  log: FatalLog,
  exit: (code: number) => void,
  graceMs = 2000,
): () => void {
  let exiting = false;
  const fatal =
    (what: string) =>
    (err: unknown): void => {
      log.logger.fatal(
        { err: err instanceof Error ? err : new Error(`A non-Error value (${typeof err}) was thrown.`) },
        `${what}; exiting`,
      );
      if (exiting) return;
      exiting = true;
      // A log that cannot be flushed must not keep a broken process alive.
      const timer = setTimeout(() => exit(1), graceMs);
      void log.close().finally(() => {
        clearTimeout(timer);
        exit(1);
      });
    };
  const onException = fatal('uncaught exception');
  const onRejection = fatal('unhandled promise rejection');
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  return () => {
    proc.off('uncaughtException', onException);
    proc.off('unhandledRejection', onRejection);
  };
}
