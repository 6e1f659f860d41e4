import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { isoTime, systemClock, type Clock } from './clock.ts';
import { formatLogLine } from './logger-format.ts';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.ts';

export type { Logger } from 'pino';

export const LOG_DIR = 'logs';
export const LOG_FILE = 'engine.log';

/**
 * Fields whose values never reach the log, at any of the first four levels
 * (an error's own properties, such as a client library's `config.headers`,
 * included). Bodies are never logged on purpose; these paths are the net under
 * that rule, for an error object that carries a request with it.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'secret',
  'secrets',
  'webhookSecret',
  'previousSecret',
  'token',
  'password',
  'apiKey',
  'signature',
  'headers',
  'rawHeaders',
  'body',
  'rawBody',
  'data',
];
export const REDACT_PATHS = SECRET_KEYS.flatMap((k) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  const dot = key.startsWith('[') ? '' : '.';
  return [key, `*${dot}${key}`, `*.*${dot}${key}`, `*.*.*${dot}${key}`];
});

export interface EngineLogOptions {
  dataDir: string;
  /** Rotate once the file passes this size (10 MiB). */
  maxBytes?: number;
  /** Rotated files kept: engine.log.1 .. engine.log.N (3). */
  keep?: number;
  level?: Level;
  /** Times in the log are wall-clock times (what an operator compares with), unless a test says otherwise. */
  clock?: Clock;
}

export interface EngineLog {
  logger: Logger;
  /** The live file, `<dataDir>/logs/engine.log`. */
  file: string;
  /**
   * Also prints every line from now on, readable (`time LEVEL message key=value`),
   * e.g. to stderr under `hookscope serve`.
   */
  addConsole(print: (line: string) => void): void;
  /** Writes out what is buffered and closes the file; later log calls are dropped. */
  close(): Promise<void>;
}

/** The options every engine logger shares: ISO times from the injected clock, level names, redaction. */
export function loggerOptions(clock: Clock = systemClock, level: Level = 'info'): pino.LoggerOptions {
  return {
    level,
    base: { pid: process.pid },
    timestamp: () => `,"time":"${isoTime(clock.now())}"`,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}

/**
 * The engine's log: JSON lines in `<dataDir>/logs/engine.log` (directory 0700,
 * files 0600), rotated by size with rotating-file-stream. That library writes in
 * this process (no worker-thread transport to outlive a crash) and keeps the live
 * file's name fixed, which pino-roll (engine.N.log) does not.
 */
export async function openEngineLog(o: EngineLogOptions): Promise<EngineLog> {
  const dir = join(o.dataDir, LOG_DIR);
  await ensurePrivateDir(o.dataDir);
  await ensurePrivateDir(dir);

  const file: RotatingFileStream = createStream(LOG_FILE, {
    path: dir,
    size: `${o.maxBytes ?? 10 * 1024 * 1024}B`,
    rotate: o.keep ?? 3,
    mode: PRIVATE_FILE_MODE,
  });
  let closed = false;
  const consoles: ((line: string) => void)[] = [];
  // A log that cannot be written must never take the engine down with it.
  file.on('error', (e: Error) => {
    for (const print of consoles) print(`hookscope: the engine log cannot be written: ${e.message}`);
  });
  const level = o.level ?? 'info';
  const streams = pino.multistream([{ level, stream: guard(file, () => closed) }]);
  const logger = pino(loggerOptions(o.clock, level), streams);

  return {
    logger,
    file: join(dir, LOG_FILE),
    addConsole: (print) => {
      consoles.push(print);
      streams.add({
        level,
        stream: { write: (line: string) => void (closed ? undefined : print(formatLogLine(line))) },
      });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        file.once('error', () => resolve());
        file.end(() => resolve());
      });
    },
  };
}

/** Drops writes after close instead of throwing "write after end" at whoever logs last. */
function guard(stream: Writable, isClosed: () => boolean): DestinationStream {
  return { write: (line: string) => void (isClosed() ? undefined : stream.write(line)) };
}
