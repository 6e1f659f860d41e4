import { closeSync, fchmodSync, openSync } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, type FileHandle } from 'node:fs/promises';

/**
 * Everything the engine keeps in its data directory is private to the user:
 * directories 0700, files 0600 (the journal holds endpoint secrets in plain
 * text). A mode given to open() or mkdir() applies only when the entry is
 * created, and then minus the umask, so these helpers set the mode explicitly
 * afterwards (fchmod on the open handle, chmod on the directory) whether the
 * entry is new or was already there.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Windows has no POSIX permission bits to set (chmod only toggles read-only). */
const POSIX_MODES = process.platform !== 'win32';

export interface ModeChange {
  path: string;
  from: number;
  to: number;
}

/**
 * Creates the directory (with its parents) or keeps the existing one, and makes it 0700.
 * Returns the change when an existing directory had another mode.
 */
export async function ensurePrivateDir(path: string): Promise<ModeChange | null> {
  const created = await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!POSIX_MODES) return null;
  const from = (await lstat(path)).mode & 0o777;
  if (from === PRIVATE_DIR_MODE) return null;
  await chmod(path, PRIVATE_DIR_MODE);
  // A directory created just now only differed by the umask: nothing was exposed.
  return created === undefined ? { path, from, to: PRIVATE_DIR_MODE } : null;
}

/** Sets an existing entry's mode; returns the change, or null when it already had it. */
export async function setMode(path: string, to: number): Promise<ModeChange | null> {
  if (!POSIX_MODES) return null;
  const from = (await lstat(path)).mode & 0o777;
  if (from === to) return null;
  await chmod(path, to);
  return { path, from, to };
}

/** open() that leaves the file 0600 whether it was created now or existed with another mode. */
export async function openPrivateFile(path: string, flags: string): Promise<FileHandle> {
  const handle = await open(path, flags, PRIVATE_FILE_MODE);
  try {
    if (POSIX_MODES) await handle.chmod(PRIVATE_FILE_MODE);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** The synchronous form, for the database worker. */
export function openPrivateFileSync(path: string, flags: string): number {
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  try {
    if (POSIX_MODES) fchmodSync(fd, PRIVATE_FILE_MODE);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** writeFile() that leaves the file 0600 (`flag` 'wx' to refuse an existing file). */
export async function writePrivateFile(path: string, data: string | Uint8Array, flag = 'w'): Promise<void> {
  const handle = await openPrivateFile(path, flag);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/** Writes `text` to `path` as 0600 through a temp file and a rename, so a reader never sees half a file. */
export async function writePrivateFileAtomic(path: string, text: string): Promise<void> {
  await writePrivateFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}
