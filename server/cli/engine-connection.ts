import { createApiClient, type ApiClient } from '../api-client/api-client.ts';
import { LOCAL_ACCOUNT, validateAccountName } from '../auth/account-id.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { readRuntimeFile } from '../engine/runtime-file.ts';
import { mintToken } from './mint-token.ts';
import { EngineNotRunningError } from './engine-not-running-error.ts';

export interface ConnectOptions {
  dataDir?: string;
  user?: string;
  env: NodeJS.ProcessEnv;
}

/** Tokens the CLI mints for itself live as long as one command (tail re-mints on reconnect). */
const CLI_TOKEN_TTL_MS = 12 * 3_600_000;

/**
 * Finds the running engine through runtime.json in the data directory
 * (`--data-dir` > HOOKSCOPE_DATA_DIR > the OS default), mints a token for the
 * account (`--user`, default local) with the install's signing key, and hands
 * back the shared API client (server/api-client/) for that engine.
 */
export async function connectToEngine(opts: ConnectOptions): Promise<ApiClient> {
  validateAccountName(opts.user ?? LOCAL_ACCOUNT);
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: opts.env });
  const runtime = await readRuntimeFile(dataDir);
  if (!runtime) throw new EngineNotRunningError(dataDir);
  const { token } = await mintToken(dataDir, opts.user ?? LOCAL_ACCOUNT, CLI_TOKEN_TTL_MS);
  const baseUrl = runtime.apiUrl.replace(/\/+$/, '');
  return createApiClient({
    baseUrl,
    token,
    // Event ids restart with each engine run (see followEvents).
    instance: `${runtime.pid}@${runtime.startedAt}@${runtime.apiUrl}`,
    fetch: async (request) => {
      try {
        return await fetch(request);
      } catch (e) {
        if (request.signal.aborted) throw e;
        // runtime.json named a live pid whose API does not answer: treat like no engine.
        const cause =
          e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
        throw new EngineNotRunningError(dataDir, `${baseUrl} does not answer: ${cause}`);
      }
    },
  });
}
