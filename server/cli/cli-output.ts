/** Where CLI commands write; injected so commands are testable as functions. */
export interface CliIO {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Raw stdout, no newline added (exact bodies and exported files); commands fall back to `out`. */
  write?: (chunk: string | Uint8Array) => void;
  /**
   * Whether stdout is a terminal: colour, decoration and escaped control
   * characters (terminal-safe.ts) only then; a pipe gets exact bytes.
   */
  isTTY?: boolean;
  /**
   * Standard input, for a value that must stay out of argv and shell history (a
   * signing secret). Absent: there is none to read (in-process tests pass flags).
   */
  stdin?: () => SecretInput;
}

/** What a command reads a secret from: a terminal (typed or pasted) or a pipe or file. */
export type SecretInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/**
 * Decided once per process. HOOKSCOPE_FORCE_TTY=1 makes a piped stdout count as
 * a terminal, so tests (whose child processes always write to a pipe) can see
 * what a terminal would be shown.
 */
const stdoutIsTTY = process.stdout.isTTY === true || process.env.HOOKSCOPE_FORCE_TTY === '1';

export const processIO: CliIO = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  write: (chunk) => process.stdout.write(chunk),
  isTTY: stdoutIsTTY,
  // A function, so that only a command that reads stdin opens it.
  stdin: () => process.stdin,
};

/** Exit codes: 0 ok, 1 failure, 2 usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Wrong flags or arguments: printed as one line, exit code 2. */
export class UsageError extends Error {}
