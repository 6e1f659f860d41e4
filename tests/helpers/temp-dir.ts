import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from './node-test.ts';

export async function makeTempDir(prefix = 'hookscope-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * A temp-dir maker for one test file: every directory it made is removed once
 * the file's tests are done (call it at the top level of the file).
 */
export function tempDirs(prefix: string): () => Promise<string> {
  const made: string[] = [];
  after(async () => {
    for (const d of made) await rm(d, { recursive: true, force: true });
  });
  return async () => {
    const d = await makeTempDir(prefix);
    made.push(d);
    return d;
  };
}
