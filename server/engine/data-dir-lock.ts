import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`Another Hookscope engine (pid ${pid}) is already using ${dataDir}; stop it first or choose another --data-dir.`);
    this.name = 'DataDirLockedError';
  }
}

const LOCK_FILE = 'engine.lock';

/**
 * One engine per data directory: two would append to the same journal and
 * corrupt it. The lock file holds the owner's pid; a lock left by a process
 * that no longer exists (a crash, kill -9) is taken over.
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return async () => {
        await unlink(path).catch(() => undefined);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(dataDir, pid);
      }
      await unlink(path).catch(() => undefined);
    }
  }
  throw new Error(`Could not take the engine lock ${path}; remove it if no engine is running.`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
