import type { EventEmitter } from 'node:events';

/**
 * `hookscope logs list | head -1`: once the reader has what it wants it closes
 * the pipe, and the next write fails with EPIPE. Node ignores SIGPIPE and emits
 * that as an 'error' event, which, unheard, prints a stack and exits 1. The
 * reader is gone, so there is nobody left to tell: `onClosed` runs instead (a
 * command ends at once with 0, as the shell expects of one cut short by `head`;
 * a running engine carries on, its lines still in the engine log). Any other
 * error on the stream is rethrown and surfaces as before. Called by
 * bin/hookscope.mjs for the real process only; tests that run the CLI
 * in-process keep their own streams.
 */
export function whenOutputCloses(streams: EventEmitter[], onClosed: () => void): void {
  for (const stream of streams) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      onClosed();
    });
  }
}
