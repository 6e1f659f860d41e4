import { LOCAL_ACCOUNT, validateAccountName } from '../auth/account-id.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { readRuntimeFile, type RuntimeInfo } from '../engine/runtime-file.ts';
import { mintToken } from './mint-token.ts';

/** An error answer of the API, from its envelope: printed as one line, exit 1. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** No engine to talk to (no runtime.json, a stale one, or an address that does not answer). */
export class EngineNotRunningError extends Error {
  constructor(
    readonly dataDir: string,
    reason?: string,
  ) {
    super(
      `No Hookscope engine is running for ${dataDir}; start one with \`npx hookscope serve\`${reason ? ` (${reason})` : ''}`,
    );
    this.name = 'EngineNotRunningError';
  }
}

export interface ConnectOptions {
  dataDir?: string;
  user?: string;
  env: NodeJS.ProcessEnv;
}

export type QueryValue = string | number | boolean | undefined;

/** Tokens the CLI mints for itself live as long as one command (tail re-mints on reconnect). */
const CLI_TOKEN_TTL_MS = 12 * 3_600_000;

/**
 * Finds the running engine through runtime.json in the data directory
 * (`--data-dir` > HOOKSCOPE_DATA_DIR > the OS default) and mints a token for the
 * account (`--user`, default local) with the install's signing key.
 */
export async function connectToEngine(opts: ConnectOptions): Promise<ApiClient> {
  validateAccountName(opts.user ?? LOCAL_ACCOUNT);
  const dataDir = resolveDataDir({ flag: opts.dataDir, env: opts.env });
  const runtime = await readRuntimeFile(dataDir);
  if (!runtime) throw new EngineNotRunningError(dataDir);
  const { token } = await mintToken(dataDir, opts.user ?? LOCAL_ACCOUNT, CLI_TOKEN_TTL_MS);
  return new ApiClient(runtime, token, dataDir);
}

/** The engine's API with typed results: `data` of the success envelope, or a thrown ApiError. */
export class ApiClient {
  readonly baseUrl: string;

  constructor(
    readonly runtime: RuntimeInfo,
    private readonly token: string,
    readonly dataDir: string,
  ) {
    this.baseUrl = runtime.apiUrl.replace(/\/+$/, '');
  }

  /** Identifies one engine run: event ids restart with each run. */
  get instance(): string {
    return `${this.runtime.pid}@${this.runtime.startedAt}@${this.runtime.apiUrl}`;
  }

  get<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, { body });
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, { body });
  }

  delete<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('DELETE', path, { body });
  }

  async request<T>(
    method: string,
    path: string,
    init: { query?: Record<string, QueryValue>; body?: unknown } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    let body: string | undefined;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const res = await this.fetch(this.url(path, init.query), { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ApiError(
        res.status,
        `HTTP_${res.status}`,
        `The engine answered ${res.status} with a body that is not JSON.`,
      );
    }
    if (!res.ok) throw toApiError(res.status, parsed);
    if (isRecord(parsed) && parsed.success === true && 'data' in parsed) return parsed.data as T;
    throw new ApiError(
      res.status,
      'UNEXPECTED_RESPONSE',
      `The engine answered ${res.status} without the success envelope.`,
    );
  }

  /**
   * A GET whose success answer is plain text (e.g. `explain?format=text`);
   * errors still arrive as the JSON envelope.
   */
  async getText(path: string, query?: Record<string, QueryValue>): Promise<string> {
    const res = await this.fetch(this.url(path, query), {
      headers: { authorization: `Bearer ${this.token}`, accept: 'text/plain, application/json' },
    });
    const text = await res.text();
    if (res.ok) return text;
    throw toApiError(res.status, parseJson(text));
  }

  /** Opens `GET /api/events` (fetch, so the Authorization header is sent); the caller reads the body. */
  async openEvents(lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const res = await this.fetch(this.url('/api/events'), { headers, signal });
    if (!res.ok) throw toApiError(res.status, parseJson(await res.text()));
    return res;
  }

  private url(path: string, query?: Record<string, QueryValue>): string {
    const u = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (init.signal?.aborted) throw e;
      // runtime.json named a live pid whose API does not answer: treat like no engine.
      const cause =
        e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
      throw new EngineNotRunningError(this.dataDir, `${this.baseUrl} does not answer: ${cause}`);
    }
  }
}

/** An error body that is not JSON (a proxy's page, say) still becomes an ApiError, from the status alone. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') {
    const code = typeof body.error.code === 'string' ? body.error.code : `HTTP_${status}`;
    return new ApiError(status, code, body.error.message, body.error.details);
  }
  return new ApiError(status, `HTTP_${status}`, `The engine answered ${status}.`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
