import { link, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ensurePrivateDir,
  openPrivateFile,
  setMode,
  PRIVATE_FILE_MODE,
  syncDirectory,
  writePrivateFileAtomic,
} from '../support/private-files.ts';
import type { Random } from '../support/random.ts';
import { readTextIfExists } from '../support/read-if-exists.ts';

export const SIGNING_KEY_FILE = 'signing-key';
const KEY_BYTES = 32;

/**
 * The per-install key that signs API tokens: 32 random bytes, base64url text in
 * `<dataDir>/signing-key`, mode 0600. Created atomically (a private temp file
 * hard-linked into place), so two processes starting at once end up sharing one key.
 * The temp file is fsynced before the link and the directory after it: a crash
 * right after creation must not leave an empty key (every token would then need
 * a new one), nor lose the link.
 */
export async function loadOrCreateSigningKey(dataDir: string, random: Random): Promise<Uint8Array> {
  await ensurePrivateDir(dataDir);
  const path = join(dataDir, SIGNING_KEY_FILE);
  const existing = await readKey(path);
  if (existing) return existing;

  const tmp = `${path}.${process.pid}.${random.bytes(6).toString('hex')}.tmp`;
  const handle = await openPrivateFile(tmp, 'wx');
  try {
    await handle.writeFile(`${random.bytes(KEY_BYTES).toString('base64url')}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // link() fails if the key appeared meanwhile, and then the other process's key wins.
    await link(tmp, path).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  await syncDirectory(dataDir);
  const key = await readKey(path);
  if (!key) throw new Error(`Could not create the signing key at ${path}.`);
  return key;
}

/**
 * Makes `<dataDir>/signing-key` hold `key`: a team server's instance keeps the
 * database's key there, so the CLI on its machine (`hookscope token`, `open`,
 * every command that mints its own token from the data directory) signs tokens
 * every instance accepts. Replaced atomically; left alone when already equal.
 */
export async function mirrorSigningKey(dataDir: string, key: Uint8Array): Promise<void> {
  const path = join(dataDir, SIGNING_KEY_FILE);
  const current = await readKey(path).catch(() => null);
  if (current && Buffer.from(current).equals(key)) return;
  await writePrivateFileAtomic(path, `${Buffer.from(key).toString('base64url')}\n`);
}

async function readKey(path: string): Promise<Uint8Array | null> {
  const text = await readTextIfExists(path);
  if (text === null) return null;
  const key = Buffer.from(text.trim(), 'base64url');
  if (key.length !== KEY_BYTES) {
    throw new Error(
      `The signing key at ${path} is damaged (expected ${KEY_BYTES} bytes); delete it to create a new one (existing tokens stop working).`,
    );
  }
  await setMode(path, PRIVATE_FILE_MODE);
  return new Uint8Array(key);
}
