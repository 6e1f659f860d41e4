import { spawn } from 'node:child_process';
import { BIN } from './cli-process.ts';

export interface CliBytesResult {
  code: number | null;
  /** stdout exactly as written (runCli's string would replace bytes that are not UTF-8). */
  stdout: Buffer;
  stderr: string;
}

/** Runs `hookscope <args>` to completion as a real child process, keeping stdout as bytes. */
export function runCliBytes(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliBytesResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}
