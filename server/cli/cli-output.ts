/** Where CLI commands write; injected so commands are testable as functions. */
export interface CliIO {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Raw stdout, no newline added (exact bodies and exported files); commands fall back to `out`. */
  write?: (chunk: string | Uint8Array) => void;
  /** Whether stdout is a terminal (colour and decoration only then). */
  isTTY?: boolean;
}

export const processIO: CliIO = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  write: (chunk) => process.stdout.write(chunk),
  isTTY: process.stdout.isTTY === true,
};

/** Exit codes: 0 ok, 1 failure, 2 usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Wrong flags or arguments: printed as one line, exit code 2. */
export class UsageError extends Error {}
