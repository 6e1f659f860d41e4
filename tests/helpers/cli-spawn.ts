import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli-process.ts';

export interface LiveCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout (or stderr) matches; rejects after `timeoutMs` (a hang guard) or if the process exits first. */
  waitFor(re: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

/** Starts a long-running `hookscope <args>` (such as `tail`) whose output a test reads as it comes. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
  const out = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const w of [...waiters]) w();
  };
  child.stdout.on('data', (c: Buffer) => {
    out.stdout += c.toString();
    wake();
  });
  child.stderr.on('data', (c: Buffer) => {
    out.stderr += c.toString();
    wake();
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      wake();
      resolve(code);
    }),
  );
  const waitFor: LiveCli['waitFor'] = (re, stream = 'stdout', timeoutMs = 20_000) =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const m = re.exec(out[stream]);
        if (m) {
          done();
          resolve(m);
        } else if (exitCode !== undefined) {
          done();
          reject(
            new Error(
              `hookscope exited (${exitCode}) before ${stream} matched ${re}\nstdout: ${out.stdout}\nstderr: ${out.stderr}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`timed out waiting for ${stream} to match ${re}\nstdout: ${out.stdout}\nstderr: ${out.stderr}`),
        );
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { child, stdout: () => out.stdout, stderr: () => out.stderr, waitFor, exited };
}

export interface FirstLineRun {
  /** The first line of stdout, without its newline. */
  firstLine: string;
  stderr: string;
  code: number | null;
}

/**
 * Runs `hookscope <args>` with stdout read by a reader that closes the pipe once
 * it has the first line, as `hookscope ... | head -1` does: what the CLI writes
 * after that meets a closed pipe (EPIPE).
 */
export function runCliFirstLine(args: string[], env: NodeJS.ProcessEnv = {}): Promise<FirstLineRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
    let out = '';
    let firstLine: string | null = null;
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const end = out.indexOf('\n');
      if (firstLine === null && end !== -1) {
        firstLine = out.slice(0, end);
        child.stdout.destroy();
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ firstLine: firstLine ?? out, stderr, code }));
  });
}
