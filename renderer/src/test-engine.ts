import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type ApiClient } from '../../server/api-client/api-client.ts';
import type { EngineConfig } from '../../server/config/config.ts';
import type { Engine } from '../../server/engine/engine.ts';

/** The storage the stores remember choices in, kept in memory: each call starts empty. */
export const memoryStorage = (): Pick<Storage, 'getItem' | 'setItem'> => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
};

export interface ComponentEngine {
  engine: Engine;
  /** Signed in as the install's owner. */
  client: ApiClient;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A real engine in this process on free ports, on a fresh data directory named after
 * `prefix`; `stop` ends it and removes the directory. Not tests/helpers/test-engine.ts:
 * that imports node:test, which vite cannot resolve for a jsdom file.
 */
export async function startTestEngine(prefix: string, config: Partial<EngineConfig> = {}): Promise<ComponentEngine> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  let engine: Engine | undefined;
  const stop = async (): Promise<void> => {
    await engine?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    // Loaded here, not at the top: most files import this one for memoryStorage alone, and
    // loading the engine would add about a second to each of them.
    const [{ DEFAULT_CONFIG }, { startEngine }] = await Promise.all([
      import('../../server/config/config.ts'),
      import('../../server/engine/engine.ts'),
    ]);
    engine = await startEngine({ ...DEFAULT_CONFIG, dataDir, apiPort: 0, receiverPort: 0, ...config });
    const client = createApiClient({ baseUrl: engine.apiUrl, token: await engine.issueToken() });
    return { engine, client, dataDir, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
