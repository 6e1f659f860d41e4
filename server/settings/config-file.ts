import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { ConflictError } from '../errors/app-errors.ts';
import { writePrivateFileAtomic } from '../support/private-files.ts';
import { readTextIfExists } from '../support/read-if-exists.ts';

export const CONFIG_FILE = 'config.json';

export type JsonObject = Record<string, unknown>;

/**
 * `<dataDir>/config.json` as the Settings screen edits it: read whole, changed
 * key by key by the caller, written back atomically as a 0600 file (a temp file
 * of its own beside it, fsync'ed, renamed over it, then the directory fsync'ed:
 * writePrivateFileAtomic), so a crash leaves either the old file or the new one,
 * never half of one; it may hold the LLM's API key. A file that is not a
 * JSON object, or cannot be read, is reported and never overwritten: it holds
 * the user's own edits, which a save must not destroy.
 */
export class ConfigFile {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, CONFIG_FILE);
  }

  /** The file's object ({} when there is no file). */
  async read(): Promise<JsonObject> {
    let text: string | null;
    try {
      text = await readTextIfExists(this.path);
    } catch (e) {
      throw new ConflictError(
        `${this.path} could not be read (${(e as NodeJS.ErrnoException).code ?? String(e)}); nothing was saved. Fix its permissions, then save again.`,
        'CONFIG_FILE_UNREADABLE',
        { path: this.path },
      );
    }
    if (text === null) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw invalid(this.path, `it is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalid(this.path, 'it does not hold a JSON object');
    }
    return parsed as JsonObject;
  }

  /** Replaces the file with `content`; a symlinked config.json keeps its link and its target is replaced. */
  async write(content: JsonObject): Promise<void> {
    const target = await realpath(this.path).catch(() => this.path);
    await writePrivateFileAtomic(target, `${JSON.stringify(content, null, 2)}\n`);
  }
}

function invalid(path: string, why: string): ConflictError {
  return new ConflictError(
    `${path} was not changed: ${why}. Fix or remove the file by hand, then save again.`,
    'CONFIG_FILE_INVALID',
    { path },
  );
}
