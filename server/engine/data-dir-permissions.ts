import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import {
  ensurePrivateDir,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  setMode,
  type ModeChange,
} from '../support/private-files.ts';

/** Directories the engine owns entirely: everything below them is made private. */
const ENGINE_DIRS = ['store', 'logs'];

/**
 * Files the engine writes or reads at the top of the data directory, with their
 * temp files and lock claims (`runtime.json.<random>.tmp`, `engine.lock.<gen>.next`,
 * ...). config.json is one of them even when a user wrote it by hand: it may hold
 * the LLM's API key. Anything else there (a user's notes) is left alone, and a
 * symlinked config.json is not followed (its target is the user's own file
 * elsewhere; the Settings screen replaces that target with a 0600 file).
 */
const ENGINE_FILE = /^(signing-key|tunnel\.json|runtime\.json|engine\.lock|config\.json)(\..+)?$/;

/**
 * Makes the data directory private: creates it 0700 if missing, sets it and the
 * engine's directories to 0700 and the engine's files to 0600. Directories made
 * with an older version, or by hand for `--data-dir`, are typically 0755 with
 * 0644 files, which let any local user read endpoint secrets from the journal.
 * Returns what it changed, so the engine can say so once.
 */
export async function tightenDataDir(dataDir: string): Promise<ModeChange[]> {
  const changes: ModeChange[] = [];
  const keep = (c: ModeChange | null): void => {
    if (c) changes.push(c);
  };
  keep(await ensurePrivateDir(dataDir));
  for (const name of await readdir(dataDir)) {
    const path = join(dataDir, name);
    if (ENGINE_DIRS.includes(name)) await tightenTree(path, keep);
    else if (ENGINE_FILE.test(name)) await tightenEntry(path, keep);
  }
  return changes;
}

/** One line for the operator, naming each entry and its old and new mode. */
export function describeModeChanges(dataDir: string, changes: ModeChange[]): string {
  const items = changes.map((c) => `${relative(dataDir, c.path) || dataDir} (${octal(c.from)} -> ${octal(c.to)})`);
  return `made ${changes.length} entr${changes.length === 1 ? 'y' : 'ies'} of the data directory ${dataDir} private (others could read them): ${items.join(', ')}`;
}

async function tightenTree(path: string, keep: (c: ModeChange | null) => void): Promise<void> {
  const kind = await tightenEntry(path, keep);
  if (kind !== 'dir') return;
  for (const name of await readdir(path).catch(ignoreVanished([] as string[])))
    await tightenTree(join(path, name), keep);
}

/** Sets a directory to 0700 or a regular file to 0600; symlinks and others are not followed. */
async function tightenEntry(path: string, keep: (c: ModeChange | null) => void): Promise<'dir' | 'file' | 'other'> {
  const st = await lstat(path).catch(ignoreVanished(null));
  if (!st) return 'other';
  if (st.isDirectory()) {
    keep(await setMode(path, PRIVATE_DIR_MODE).catch(ignoreVanished(null)));
    return 'dir';
  }
  if (st.isFile()) {
    keep(await setMode(path, PRIVATE_FILE_MODE).catch(ignoreVanished(null)));
    return 'file';
  }
  return 'other';
}

/** A temp file may disappear between readdir and chmod; that is not an error. */
function ignoreVanished<T>(fallback: T): (e: unknown) => T {
  return (e) => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw e;
  };
}

const octal = (mode: number): string => `0${mode.toString(8)}`;
