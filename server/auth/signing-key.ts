import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Random } from '../support/random.ts';

export const SIGNING_KEY_FILE = 'signing-key';
const KEY_BYTES = 32;

/**
 * The per-install key that signs API tokens: 32 random bytes, base64url text in
 * `<dataDir>/signing-key`, mode 0600. Created atomically (a private temp file
 * hard-linked into place), so two processes starting at once end up sharing one key.
 */
export async function loadOrCreateSigningKey(dataDir: string, random: Random): Promise<Uint8Array> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, SIGNING_KEY_FILE);
  const existing = await readKey(path);
  if (existing) return existing;

  const tmp = `${path}.${process.pid}.${random.bytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${random.bytes(KEY_BYTES).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // link() fails if the key appeared meanwhile, and then the other process's key wins.
    await link(tmp, path).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  const key = await readKey(path);
  if (!key) throw new Error(`Could not create the signing key at ${path}.`);
  return key;
}

async function readKey(path: string): Promise<Uint8Array | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const key = Buffer.from(text.trim(), 'base64url');
  if (key.length !== KEY_BYTES) {
    throw new Error(`The signing key at ${path} is damaged (expected ${KEY_BYTES} bytes); delete it to create a new one (existing tokens stop working).`);
  }
  if (process.platform !== 'win32' && ((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  return new Uint8Array(key);
}
