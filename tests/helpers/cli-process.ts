import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const BIN = new URL('../../bin/hookscope.mjs', import.meta.url).pathname;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `hookscope <args>` to completion as a real child process. */
/**
 * Runs the CLI to its end. `timeoutMs` bounds a command expected to stop by itself (a
 * `serve` that should refuse to start): past it the child is killed and the result
 * says so, so a test of a refusal fails instead of hanging when the refusal is gone.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs?: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            stderr += `\n[runCli: still running after ${timeoutMs} ms; killed]`;
            child.kill('SIGKILL');
          }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  child: ChildProcess;
  apiUrl: string;
  receiverUrl: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `hookscope serve` on free ports and waits until runtime.json names its addresses. */
export async function startServe(
  dataDir: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--data-dir', dataDir, '--api-port', '0', '--receiver-port', '0', ...extra],
    {
      env: { ...process.env, NO_COLOR: '1', ...env },
    },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const info = JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8')) as {
        pid: number;
        apiUrl: string;
        receiverUrl: string;
      };
      // runtime.json is written during start-up; the banner follows it, ending with this line.
      if (info.pid === child.pid && out.includes('Press Ctrl+C to stop.')) {
        return { child, apiUrl: info.apiUrl, receiverUrl: info.receiverUrl, output: () => out, exited };
      }
    } catch {
      // not written yet
    }
    if (child.exitCode !== null) throw new Error(`serve exited early (${child.exitCode}): ${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`serve did not become ready: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
