import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../support/private-files.ts';
import { SUBDOMAIN_PATTERN } from './subdomain.ts';

export const TUNNEL_FILE = 'tunnel.json';

interface TunnelFile {
  /** The subdomain last wanted on each tunnel host (a name means nothing on another host). */
  subdomains: Record<string, string>;
}

/**
 * Remembers the wanted subdomain per tunnel host in `<dataDir>/tunnel.json`, so a
 * restarted engine asks for the same public URL again (a provider's webhook
 * settings keep working). A small JSON file rather than a table: it is engine
 * configuration, read once at start, not account data.
 */
export class SubdomainMemory {
  private readonly path: string;
  private writes: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.path = join(dataDir, TUNNEL_FILE);
  }

  async recall(host: string): Promise<string | null> {
    const sub = (await this.read()).subdomains[host];
    return typeof sub === 'string' && SUBDOMAIN_PATTERN.test(sub) ? sub : null;
  }

  /** Writes are chained so two changes in a row land in order; the file is replaced atomically. */
  remember(host: string, subdomain: string): Promise<void> {
    this.writes = this.writes
      .catch(() => undefined)
      .then(async () => {
        const file = await this.read();
        if (file.subdomains[host] === subdomain) return;
        file.subdomains[host] = subdomain;
        await writePrivateFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`);
      });
    return this.writes;
  }

  private async read(): Promise<TunnelFile> {
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as Partial<TunnelFile>;
      const subs = parsed.subdomains;
      return { subdomains: typeof subs === 'object' && subs !== null ? { ...subs } : {} };
    } catch {
      // Missing or unreadable: start afresh (a new subdomain is the only cost).
      return { subdomains: {} };
    }
  }
}
