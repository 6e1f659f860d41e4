import { createApiClient, type ApiClient } from '../api-client/api-client.ts';
import { LOCAL_ACCOUNT, validateAccountName } from '../auth/account-id.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { readRuntimeFile } from '../engine/runtime-file.ts';
import { mintToken } from './mint-token.ts';
import { EngineNotRunningError } from './engine-not-running-error.ts';
import { resolveEngineTarget, type TargetInput } from './engine-target.ts';
import { LoginStore } from './login-store.ts';
import { connectToRemote } from './remote-engine.ts';
import { RemoteEngineError } from './remote-engine-errors.ts';

export interface ConnectOptions extends TargetInput {
  dataDir?: string;
}

/** Tokens the CLI mints for itself live as long as one command (tail re-mints on reconnect). */
const CLI_TOKEN_TTL_MS = 12 * 3_600_000;

/**
 * Hands back the shared API client (server/api-client/) for the engine the
 * flags choose (engine-target.ts). An engine named by URL gets the token given
 * or the one `hookscope login` stored for it. Otherwise the running engine is
 * found through runtime.json in the data directory (`--data-dir` >
 * HOOKSCOPE_DATA_DIR > the OS default), and unless a token is given, one is
 * minted for the account (`--user`, default local) with the install's signing key.
 */
export async function connectToEngine(opts: ConnectOptions): Promise<ApiClient> {
  const target = resolveEngineTarget(opts);
  validateAccountName(opts.user ?? LOCAL_ACCOUNT);
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: opts.env });
  if (target.kind === 'remote') {
    const token = target.token ?? (await new LoginStore(dataDir).find(target.url))?.token;
    if (token === undefined) {
      throw new RemoteEngineError(
        `No token for ${target.url}: run \`hookscope login ${target.url}\` first, or pass --token (or set HOOKSCOPE_TOKEN).`,
      );
    }
    return connectToRemote(target.url, token);
  }
  const runtime = await readRuntimeFile(dataDir);
  if (!runtime) throw new EngineNotRunningError(dataDir);
  const token = target.token ?? (await mintToken(dataDir, opts.user ?? LOCAL_ACCOUNT, CLI_TOKEN_TTL_MS)).token;
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
