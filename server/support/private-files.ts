import { closeSync, fchmodSync, openSync } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cryptoRandom, type Random } from './random.ts';

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

/**
 * Replaces `path` with `data` as a 0600 file, atomically and durably: the bytes go
 * to a temp file of this write's own beside it (a random name, created with O_EXCL,
 * so two writes of the same file at once never share a temp file and a file or
 * link planted under the name is never written through), are fsync'ed, and the
 * temp file is renamed over `path`, so a reader or a crash sees the old file or
 * the new one, never half of one. The directory is then fsync'ed so the rename
 * itself survives a power loss, where the platform allows. On failure the temp
 * file is removed and `path` is left as it was. Every private file written whole
 * (runtime.json, tunnel.json, config.json, the desktop app's files) goes through here.
 */
export async function writePrivateFileAtomic(
  path: string,
  data: string | Uint8Array,
  random: Random = cryptoRandom,
): Promise<void> {
  const temp = `${path}.${random.bytes(6).toString('hex')}.tmp`;
  let handle: FileHandle | null = await open(temp, 'wx', PRIVATE_FILE_MODE);
  try {
    if (POSIX_MODES) await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(data);
    await handle.sync();
    const closing = handle;
    handle = null;
    await closing.close();
    await rename(temp, path);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw e;
  }
  await syncDirectory(dirname(path));
}

/** Makes a rename in `dir` durable. Windows cannot open a directory, and some file systems refuse the fsync: the rename is still atomic there. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // EINVAL or EPERM from a file system without directory fsync: nothing more can be done.
  } finally {
    await handle.close();
  }
}
