import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFileAtomic } from '../support/private-files.ts';
import { readTextIfExists } from '../support/read-if-exists.ts';

/** Beside the CLI's other files in the data directory, private like them (0600 in a 0700 directory). */
export const LISTEN_STATE_FILE = 'listen-state.json';

/**
 * Per engine, per endpoint: the last delivery `hookscope listen` is done with
 * (forwarded, or answered for good), so the next run starts after it. `''`
 * marks an endpoint the listener started on before it had any delivery: the
 * next run catches up on all of them.
 */
const StateSchema = z.object({
  version: z.literal(1),
  engines: z.record(z.string(), z.record(z.string(), z.string())),
});
type StateFile = z.infer<typeof StateSchema>;

/**
 * listen-state.json. Each save reads the file again and changes only its own
 * engine's endpoint, so two listeners (on two engines, or on different
 * endpoints) keep each other's places; writes of one process go one at a time,
 * atomically (a reader or a crash sees the file before or after, never half).
 */
export class ListenState {
  readonly path: string;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    /** The engine's key: its URL, or `local` for the engine of this data directory. */
    private readonly engine: string,
  ) {
    this.path = join(dataDir, LISTEN_STATE_FILE);
  }

  /** This engine's endpoints and the last log id each is done with. */
  async load(): Promise<Map<string, string>> {
    return new Map(Object.entries((await this.read()).engines[this.engine] ?? {}));
  }

  /** Records that `logId` is the last delivery of `endpointId` done with; resolves once it is on disk. */
  save(endpointId: string, logId: string): Promise<void> {
    return this.update((places) => places.set(endpointId, logId));
  }

  /** Sets these places, each only for an endpoint that has none yet (a place kept by another run wins). */
  mark(marks: ReadonlyMap<string, string>): Promise<void> {
    return this.update((places) => {
      for (const [id, logId] of marks) if (!places.has(id)) places.set(id, logId);
    });
  }

  /** Resolves once every save begun so far is written. */
  flushed(): Promise<void> {
    return this.writing;
  }

  private update(change: (places: Map<string, string>) => void): Promise<void> {
    const next = this.writing.then(async () => {
      const file = await this.read();
      const places = new Map(Object.entries(file.engines[this.engine] ?? {}));
      change(places);
      file.engines[this.engine] = Object.fromEntries(places);
      await ensurePrivateDir(this.dataDir);
      await writePrivateFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`);
    });
    // A failed write is the caller's error; the next one still runs.
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<StateFile> {
    const text = await readTextIfExists(this.path);
    if (text === null) return { version: 1, engines: {} };
    try {
      return StateSchema.parse(JSON.parse(text));
    } catch {
      throw new Error(
        `${this.path} is not a listen state file Hookscope wrote; delete it (the next \`hookscope listen\` then starts with live deliveries).`,
      );
    }
  }
}
