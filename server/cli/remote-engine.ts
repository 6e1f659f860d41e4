import { createApiClient, type ApiClient, type ApiSchemas } from '../api-client/api-client.ts';
import { ApiError, isRecord, NETWORK_ERROR } from '../api-client/api-error.ts';
import { API_VERSION } from '../api-client/shared.ts';
import { EngineUnreachableError, RemoteEngineError } from './remote-engine-errors.ts';

/** The 401 codes of a bearer token the engine refuses (server/auth/token-service.ts, parseBearer). */
const REFUSED_TOKEN_CODES = new Set(['TOKEN_EXPIRED', 'INVALID_TOKEN', 'MISSING_TOKEN']);

/**
 * Checks that `url` is a Hookscope engine speaking this client's API version,
 * then hands back the API client for it, sending `token`. A token the engine
 * refuses, on any call, is an error that says to sign in again.
 */
export async function connectToRemote(url: string, token: string): Promise<ApiClient> {
  const version = await checkEngine(url);
  return createApiClient({
    baseUrl: url,
    token,
    // Event ids are numbered per id space (an embedded engine's restart with each run): see followEvents.
    instance: `${url}@${version.events}`,
    fetch: async (request) => {
      const response = await fetch(request);
      if (response.status === 401) {
        const code = await errorCode(response.clone());
        if (code !== undefined && REFUSED_TOKEN_CODES.has(code)) throw tokenRefused(url, code);
      }
      return response;
    },
  });
}

/**
 * Asks the unauthenticated `GET /api/version`, before any token is sent: no
 * answer, an answer that is not Hookscope's, and another API version each get
 * their own sentence, naming the URL.
 */
export async function checkEngine(url: string): Promise<ApiSchemas['Version']> {
  let version: unknown;
  try {
    version = await createApiClient({ baseUrl: url }).get('/api/version');
  } catch (e) {
    // A reverse proxy answers 502-504 for an engine behind it that is down or restarting.
    if (e instanceof ApiError && (e.code === NETWORK_ERROR || e.status >= 500)) {
      const cause = e.code === NETWORK_ERROR ? causeOf(e) : `HTTP ${e.status}`;
      throw new EngineUnreachableError(
        `The engine at ${url} does not answer (${cause}): check the URL and that the server is running.`,
      );
    }
    throw notAnEngine(url);
  }
  if (!isVersion(version)) throw notAnEngine(url);
  if (version.api !== API_VERSION) {
    throw new RemoteEngineError(
      `The engine at ${url} speaks API version ${version.api} (Hookscope ${version.version}), and this hookscope ` +
        `speaks API version ${API_VERSION}: use a hookscope of the engine's version.`,
    );
  }
  return version;
}

function isVersion(v: unknown): v is ApiSchemas['Version'] {
  return isRecord(v) && typeof v.api === 'string' && typeof v.version === 'string' && typeof v.name === 'string';
}

function notAnEngine(url: string): RemoteEngineError {
  return new RemoteEngineError(
    `${url} answers, but not as a Hookscope engine (no valid ${url}/api/version): check the URL.`,
  );
}

function tokenRefused(url: string, code: string): RemoteEngineError {
  const why = code === 'TOKEN_EXPIRED' ? 'has expired' : 'is not valid there';
  return new RemoteEngineError(`The token for ${url} ${why}: run \`hookscope login ${url}\` again.`);
}

/** The error code of an error envelope, if the body is one. */
async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.json();
    return isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** What the system said (ECONNREFUSED, ENOTFOUND ...), without the URL the sentence already names. */
function causeOf(e: ApiError): string {
  const cause: unknown = e.cause;
  if (cause instanceof Error && cause.cause instanceof Error) {
    const sys = cause.cause as NodeJS.ErrnoException;
    return sys.code ?? sys.message;
  }
  return e.message;
}

/** Trades a one-time sign-in code for a token (`hookscope login`); the code is spent whatever the outcome. */
export async function tradeSignInCode(url: string, code: string): Promise<ApiSchemas['IssuedToken']> {
  await checkEngine(url);
  try {
    return await createApiClient({ baseUrl: url }).post('/api/session/token', { body: { code } });
  } catch (e) {
    if (e instanceof ApiError && e.code === 'SIGN_IN_CODE_INVALID') {
      throw new RemoteEngineError(
        `This sign-in code is unknown to ${url}, expired or already used: ` +
          'run `hookscope open --print` on the server for a new one (it works once, for 10 minutes).',
      );
    }
    throw e;
  }
}
