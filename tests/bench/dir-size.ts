// The size of a data directory while an engine writes to it: files come and go
// (journal segments, the snapshot's temporary file), so a file or folder that
// vanishes between listing and stat counts as nothing instead of failing.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const gone = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** Total apparent size in bytes of the files under `dir`. */
export async function dirBytes(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if (gone(e)) return 0;
    throw e;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await dirBytes(path);
    else if (entry.isFile())
      total += await lstat(path).then(
        (s) => s.size,
        (e: unknown) => {
          if (gone(e)) return 0;
          throw e;
        },
      );
  }
  return total;
}
