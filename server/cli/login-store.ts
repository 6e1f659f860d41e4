import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFileAtomic } from '../support/private-files.ts';
import { readTextIfExists } from '../support/read-if-exists.ts';

/** Beside the engine's own files in the data directory, and private like them (0600 in a 0700 directory). */
export const CREDENTIALS_FILE = 'credentials.json';

const StoredLoginSchema = z.object({
  token: z.string().min(1),
  accountId: z.string(),
  account: z.string(),
  expiresAt: z.string(),
});
const CredentialsSchema = z.object({ logins: z.record(z.string(), StoredLoginSchema) });

export type StoredLogin = z.infer<typeof StoredLoginSchema>;

/**
 * The tokens `hookscope login` got, one per engine URL (normalised by
 * engine-target.ts), in `credentials.json` in the data directory. Each change
 * rewrites the whole file atomically, so a reader sees it before or after,
 * never half written.
 */
export class LoginStore {
  readonly path: string;

  constructor(private readonly dataDir: string) {
    this.path = join(dataDir, CREDENTIALS_FILE);
  }

  async all(): Promise<Map<string, StoredLogin>> {
    const text = await readTextIfExists(this.path);
    if (text === null) return new Map();
    let parsed: z.infer<typeof CredentialsSchema>;
    try {
      parsed = CredentialsSchema.parse(JSON.parse(text));
    } catch {
      throw new Error(
        `${this.path} is not a credentials file Hookscope wrote; delete it and run \`hookscope login <url>\` again.`,
      );
    }
    return new Map(Object.entries(parsed.logins));
  }

  async find(url: string): Promise<StoredLogin | undefined> {
    return (await this.all()).get(url);
  }

  /** Keeps `login` for `url`, replacing the one it had. */
  async save(url: string, login: StoredLogin): Promise<void> {
    const logins = await this.all();
    logins.set(url, login);
    await this.write(logins);
  }

  /** Forgets the login of `url`; false when there was none. */
  async forget(url: string): Promise<boolean> {
    const logins = await this.all();
    if (!logins.delete(url)) return false;
    await this.write(logins);
    return true;
  }

  private async write(logins: Map<string, StoredLogin>): Promise<void> {
    await ensurePrivateDir(this.dataDir);
    await writePrivateFileAtomic(this.path, `${JSON.stringify({ logins: Object.fromEntries(logins) }, null, 2)}\n`);
  }
}
