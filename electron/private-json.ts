import { rename } from 'node:fs/promises';
import { writePrivateFile } from '../server/support/private-files.ts';

/** Writes `text` to `path` as 0600, through a temp file and a rename, so a reader never sees half a file. */
export async function writePrivateFileAtomic(path: string, text: string): Promise<void> {
  await writePrivateFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}
