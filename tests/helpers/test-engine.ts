import { rm } from 'node:fs/promises';
import { DEFAULT_CONFIG, type EngineConfig } from '../../server/config/config.ts';
import { startEngine, type Engine, type EngineDeps } from '../../server/engine/engine.ts';
import { freshDatabase, type FreshDatabase } from './postgres.ts';
import { makeTempDir } from './temp-dir.ts';

export { makeTempDir };

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestEngine {
  engine: Engine;
  dataDir: string;
  token: string;
  api<T = any>(
    method: string,
    path: string,
    init?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  deliver(
    path: string,
    init?: { method?: string; body?: string | Buffer; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  /** Creates an endpoint and returns its id. */
  endpoint(input: Record<string, unknown>, token?: string): Promise<string>;
  stop(): Promise<void>;
}

export function testConfig(dataDir: string, overrides: Partial<EngineConfig> = {}): EngineConfig {
  return { ...DEFAULT_CONFIG, dataDir, apiPort: 0, receiverPort: 0, ...overrides };
}

/** A real engine on free ports with a temp data directory; `stop()` removes both. */
export async function startTestEngine(
  overrides: Partial<EngineConfig> = {},
  deps: EngineDeps = {},
  existingDir?: string,
): Promise<TestEngine> {
  const dataDir = existingDir ?? (await makeTempDir());
  // HOOKSCOPE_TEST_STORE=postgres runs the same tests on a team server's backend: a database per engine.
  const database: FreshDatabase | null =
    process.env.HOOKSCOPE_TEST_STORE === 'postgres' && overrides.databaseUrl === undefined && !existingDir
      ? await freshDatabase()
      : null;
  const config = testConfig(dataDir, database ? { databaseUrl: database.url, ...overrides } : overrides);
  const engine = await startEngine(config, deps).catch(async (e: unknown) => {
    await database?.drop();
    throw e;
  });
  const token = await engine.issueToken();

  const api: TestEngine['api'] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const t = init.token === undefined ? token : init.token;
    if (t) headers.authorization = `Bearer ${t}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(engine.apiUrl + path, { method, headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };

  const deliver: TestEngine['deliver'] = async (path, init = {}) => {
    const res = await fetch(engine.receiverUrl + path, {
      method: init.method ?? 'POST',
      headers: init.headers,
      // A plain Uint8Array view: the same bytes, typed as a body under both Node's and the DOM's fetch.
      body: typeof init.body === 'string' || init.body === undefined ? init.body : new Uint8Array(init.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };

  const endpoint: TestEngine['endpoint'] = async (input, t) => {
    const r = await api('POST', '/api/endpoints', { body: input, token: t });
    if (r.status !== 201) throw new Error(`endpoint create failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data.id as string;
  };

  return {
    engine,
    dataDir,
    token,
    api,
    deliver,
    endpoint,
    stop: async () => {
      await engine.stop();
      await database?.drop();
      if (!existingDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
