import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../support/private-files.ts';
import { isAlive } from './data-dir-lock.ts';

/** What a running engine publishes in its data directory so the CLI can find it. */
export interface RuntimeInfo {
  pid: number;
  apiUrl: string;
  receiverUrl: string;
  publicUrl: string | null;
  startedAt: string;
  version: string;
}

export const RUNTIME_FILE = 'runtime.json';

export async function writeRuntimeFile(dataDir: string, info: RuntimeInfo): Promise<void> {
  const path = join(dataDir, RUNTIME_FILE);
  await writePrivateFileAtomic(path, `${JSON.stringify(info, null, 2)}\n`);
}

export async function removeRuntimeFile(dataDir: string): Promise<void> {
  await unlink(join(dataDir, RUNTIME_FILE)).catch(() => undefined);
}

/** The running engine's info, or null when none runs (no file, or its process is gone). */
export async function readRuntimeFile(dataDir: string): Promise<RuntimeInfo | null> {
  try {
    const info = JSON.parse(await readFile(join(dataDir, RUNTIME_FILE), 'utf8')) as RuntimeInfo;
    return typeof info.pid === 'number' && isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}
