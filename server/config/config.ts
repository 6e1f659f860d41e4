import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors/config-error.ts';
import { parseDuration } from './durations.ts';
import { isAbsoluteHttpUrl } from '../support/absolute-url.ts';
import { readTextIfExists } from '../support/read-if-exists.ts';
import { ACCOUNT_NAME_RE, LOCAL_ACCOUNT } from '../auth/account-id.ts';
import {
  absoluteHttpUrl,
  accountName,
  bindHost,
  isBindHost,
  llmApiKey,
  llmModel,
  llmUrl,
  port,
  positiveInt,
  publicOrigin,
  publicUrl,
  rateLimitPerSecond,
  signInPerMinute,
  SUBDOMAIN_RE,
  tunnelSubdomain,
} from './config-rules.ts';
import { databaseUrl, DATABASE_URL_RULE, isDatabaseUrl, refuseTunnelWithDatabase } from './database-config.ts';
import { isLoopbackHost, OFF_LOOPBACK_SIGN_IN_PER_MINUTE, refuseTunnelWithPublicUrl } from './serving-config.ts';
import { settingSources, type SettingSources } from './setting-origins.ts';
import { parseTrustProxy, TRUST_PROXY_RULE } from '../http/client-address.ts';

export interface EngineConfig {
  dataDir: string;
  apiHost: string;
  apiPort: number;
  receiverHost: string;
  receiverPort: number;
  maxBodyBytes: number;
  /** Both budgets are per account: one account's traffic never evicts another's logs. */
  retention: { maxLogsPerAccount: number; maxBodyBytesPerAccount: number };
  receiver: ReceiverConfig;
  durability: {
    sync: 'interval' | 'strict';
    syncIntervalMs: number;
    checkpointIntervalMs: number;
    checkpointBytes: number;
  };
  /** How long a regenerated secret's predecessor stays valid. */
  secretGraceMs: number;
  tokenTtlMs: number;
  /** How long a UI session (the cookie a sign-in link gives) lasts. */
  sessionTtlMs: number;
  /** Heartbeat comment interval of `GET /api/events` streams. */
  sseHeartbeatMs: number;
  /** Open `GET /api/events` streams one account may hold at once; beyond it 429. */
  maxEventStreamsPerAccount: number;
  /**
   * The configured public URL (`--public-url`, an origin): the base of receiving URLs,
   * share links and sign-in links, and the one host the API's Host check accepts
   * beside loopback. Null: local URLs, or the tunnel's while it is online.
   */
  publicBaseUrl: string | null;
  /** The account that may change engine-wide settings (`--owner`); default the local account. */
  owner: string;
  /**
   * The team store (`--database`): a PostgreSQL URL, shared by every instance
   * given it. Null: the embedded sql.js store in the data directory.
   */
  databaseUrl: string | null;
  /**
   * Sign-in attempts (code redemptions and sign-in links minted over HTTP) per
   * minute per source address; beyond it 429. 0 = off, the default while the API
   * listens on loopback only.
   */
  signInRateLimit: { perMinute: number };
  /**
   * Reverse proxies (addresses and CIDR ranges, `--trust-proxy`) whose
   * X-Forwarded-For names the client: the sign-in rate limit counts it and a
   * delivery stores it as sourceIp. Empty (the default): the socket's address.
   */
  trustProxy: readonly string[];
  /**
   * With a database (PostgreSQL): how often an instance asks it for settings
   * another instance saved. The embedded store ignores it (config.json, one engine).
   */
  settingsPollMs: number;
  /** Retry delays of the forward queue while an endpoint's forwardUrl is down (doubling, with jitter). */
  forward: { initialBackoffMs: number; maxBackoffMs: number; timeoutMs: number };
  /**
   * Several instances on one database (PostgreSQL): an instance works an
   * endpoint's forward queue only while it holds that lane's lease, renewed a
   * few times per `leaseMs` while it works; another takes the lane over once the
   * lease has run out. Every `scanIntervalMs` it looks for queued work no
   * instance holds. The embedded store ignores both (one engine, no leases).
   */
  forwardLanes: { leaseMs: number; scanIntervalMs: number };
  /**
   * Several instances on one database (PostgreSQL): each renews a heartbeat row
   * every `heartbeatMs`; one whose last beat is older than `graceMs` no longer
   * counts as live (the rate limit is shared between the live ones). The
   * embedded store ignores both (one engine).
   */
  instances: { heartbeatMs: number; graceMs: number };
  /**
   * Optional LLM prose for analyses; null (the default) runs the rules alone.
   * `envApiKey` is HOOKSCOPE_LLM_API_KEY when set: it applies to a URL set later in Settings too.
   */
  remediation: { llm: LlmConfig | null; envApiKey?: string };
  tunnel: TunnelConfig;
  /** Which flag, variable or config.json key gave the settings the Settings screen shows; absent = default. */
  sources: SettingSources;
}

/**
 * What protects the laptop from whoever learns the public URL (DESIGN.md "Limits").
 * Timeouts answer 408, the rate limit 429 and the memory budget 503, each with the
 * error envelope.
 */
export interface ReceiverConfig {
  /** Per-endpoint token bucket; perSecond 0 turns it off. */
  rateLimit: { perSecond: number; burst: number };
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** The body must be complete within this of the headers. */
  requestTimeoutMs: number;
  /** Longest pause between two body bytes. */
  bodyIdleTimeoutMs: number;
  /** Body bytes held in memory across all requests at once; above it new deliveries get 503. */
  maxInFlightBodyBytes: number;
}

/** An OpenAI-compatible chat completions server (e.g. a local model server). */
export interface LlmConfig {
  /** A base URL (`/v1/chat/completions` is appended) or a URL ending in `/chat/completions`. */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

/** The public URL through localtunnel (server/tunnel). */
export interface TunnelConfig {
  enabled: boolean;
  /** The localtunnel server. */
  host: string;
  /** The subdomain to ask for; null = the one remembered in the data directory, else a fresh random one. */
  subdomain: string | null;
  /**
   * Where the health probe connects instead of the public URL's own host (sending
   * the public URL's Host header); null = the public URL itself. For self-hosted
   * servers whose handed-out URLs do not resolve from this machine.
   */
  probeOrigin: string | null;
  /** Registration, first socket and first successful probe must all fit in this. */
  openTimeoutMs: number;
  /** How often the public URL is probed while online; 0 turns the probe off (online then means: a socket reached the server). */
  probeIntervalMs: number;
  probeTimeoutMs: number;
  /** Consecutive failed probes that count as a drop. */
  probeFailures: number;
  /** Reconnection backoff bounds (doubling, with jitter). */
  backoffMinMs: number;
  backoffMaxMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_CONFIG: Omit<EngineConfig, 'dataDir'> = {
  apiHost: '127.0.0.1',
  apiPort: 4680,
  receiverHost: '127.0.0.1',
  receiverPort: 4681,
  maxBodyBytes: 10 * MiB,
  retention: { maxLogsPerAccount: 10_000, maxBodyBytesPerAccount: 512 * MiB },
  receiver: {
    rateLimit: { perSecond: 1000, burst: 2000 },
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    bodyIdleTimeoutMs: 10_000,
    maxInFlightBodyBytes: 64 * MiB,
  },
  durability: { sync: 'interval', syncIntervalMs: 100, checkpointIntervalMs: 10 * 60_000, checkpointBytes: 64 * MiB },
  secretGraceMs: 24 * 3_600_000,
  tokenTtlMs: 30 * 86_400_000,
  sessionTtlMs: 30 * 86_400_000,
  sseHeartbeatMs: 15_000,
  maxEventStreamsPerAccount: 20,
  publicBaseUrl: null,
  owner: LOCAL_ACCOUNT,
  databaseUrl: null,
  signInRateLimit: { perMinute: 0 },
  trustProxy: [],
  settingsPollMs: 1000,
  remediation: { llm: null },
  forward: { initialBackoffMs: 1000, maxBackoffMs: 60_000, timeoutMs: 30_000 },
  forwardLanes: { leaseMs: 30_000, scanIntervalMs: 5_000 },
  instances: { heartbeatMs: 5_000, graceMs: 15_000 },
  tunnel: {
    enabled: false,
    host: 'https://localtunnel.me',
    subdomain: null,
    probeOrigin: null,
    openTimeoutMs: 20_000,
    probeIntervalMs: 30_000,
    probeTimeoutMs: 10_000,
    probeFailures: 2,
    backoffMinMs: 1_000,
    backoffMaxMs: 30_000,
  },
  sources: {},
};

export const CONFIG_DOC = [
  {
    key: 'apiPort',
    env: 'HOOKSCOPE_API_PORT',
    flag: '--api-port',
    default: '4680',
    description: 'API port (0 = free port)',
  },
  {
    key: 'apiHost',
    env: 'HOOKSCOPE_API_HOST',
    flag: '--api-host',
    default: '127.0.0.1',
    description: 'address the API listens on (a team server: 0.0.0.0, with --public-url)',
  },
  {
    key: 'receiverHost',
    env: 'HOOKSCOPE_RECEIVER_HOST',
    flag: '--receiver-host',
    default: '127.0.0.1',
    description: 'address the receiver listens on',
  },
  {
    key: 'publicUrl',
    env: 'HOOKSCOPE_PUBLIC_URL',
    flag: '--public-url',
    default: '(none)',
    description:
      'origin a reverse proxy serves the engine at: base of receiving, share and sign-in URLs; the one extra host the API accepts',
  },
  {
    key: 'owner',
    env: 'HOOKSCOPE_OWNER',
    flag: '--owner',
    default: 'local',
    description: 'account that may change engine-wide settings (tunnel, retention, rate limit, LLM)',
  },
  {
    key: 'database.url',
    env: 'HOOKSCOPE_DATABASE_URL',
    flag: '--database',
    default: '(none: the embedded store)',
    description: 'PostgreSQL URL of a team server; every instance given it serves the same data (no tunnel)',
  },
  {
    key: 'signInRateLimit.perMinute',
    env: 'HOOKSCOPE_SIGN_IN_RATE_LIMIT',
    flag: null,
    default: '20 off loopback, else 0',
    description: 'sign-in attempts per minute per source address (then 429; 0 = off)',
  },
  {
    key: 'trustProxy',
    env: 'HOOKSCOPE_TRUST_PROXY',
    flag: '--trust-proxy',
    default: '(none)',
    description:
      'reverse proxies (comma-separated addresses and CIDR ranges) whose X-Forwarded-For names the client: the sign-in rate limit and stored source addresses use it',
  },
  {
    key: 'receiverPort',
    env: 'HOOKSCOPE_RECEIVER_PORT',
    flag: '--receiver-port',
    default: '4681',
    description: 'receiver port (0 = free port)',
  },
  {
    key: 'maxBodyBytes',
    env: 'HOOKSCOPE_MAX_BODY_BYTES',
    flag: null,
    default: '10485760',
    description: 'largest accepted delivery body',
  },
  {
    key: 'retention.maxLogsPerAccount',
    env: 'HOOKSCOPE_RETENTION_MAX_LOGS',
    flag: null,
    default: '10000',
    description: 'logs kept per account',
  },
  {
    key: 'retention.maxBodyBytesPerAccount',
    env: 'HOOKSCOPE_RETENTION_MAX_BODY_BYTES',
    flag: null,
    default: '536870912',
    description: 'stored body bytes per account',
  },
  {
    key: 'receiver.rateLimit.perSecond',
    env: 'HOOKSCOPE_RATE_LIMIT_PER_SECOND',
    flag: null,
    default: '1000',
    description: 'deliveries per second per endpoint (token bucket; 0 = off); over it 429',
  },
  {
    key: 'receiver.rateLimit.burst',
    env: 'HOOKSCOPE_RATE_LIMIT_BURST',
    flag: null,
    default: '2000',
    description: 'burst size of that bucket',
  },
  {
    key: 'receiver.headersTimeoutMs',
    env: 'HOOKSCOPE_RECEIVER_HEADERS_TIMEOUT',
    flag: null,
    default: '10s',
    description: 'time a sender has for its request headers (then 408)',
  },
  {
    key: 'receiver.requestTimeoutMs',
    env: 'HOOKSCOPE_RECEIVER_REQUEST_TIMEOUT',
    flag: null,
    default: '30s',
    description: 'time a sender has for the whole body after its headers (then 408, recorded)',
  },
  {
    key: 'receiver.bodyIdleTimeoutMs',
    env: 'HOOKSCOPE_RECEIVER_BODY_IDLE_TIMEOUT',
    flag: null,
    default: '10s',
    description: 'longest pause between body bytes (then 408, recorded)',
  },
  {
    key: 'receiver.maxInFlightBodyBytes',
    env: 'HOOKSCOPE_RECEIVER_MAX_INFLIGHT_BYTES',
    flag: null,
    default: '67108864',
    description: 'body bytes held in memory across all requests (then 503, recorded)',
  },
  {
    key: 'durability.sync',
    env: 'HOOKSCOPE_SYNC',
    flag: null,
    default: 'interval',
    description: 'journal fdatasync policy: interval or strict',
  },
  {
    key: 'secretGraceMs',
    env: 'HOOKSCOPE_SECRET_GRACE',
    flag: null,
    default: '24h',
    description: "validity of a regenerated secret's predecessor",
  },
  {
    key: 'remediation.llm.url',
    env: 'HOOKSCOPE_LLM_URL',
    flag: null,
    default: '(off)',
    description: 'OpenAI-compatible server that adds prose to analyses',
  },
  {
    key: 'remediation.llm.model',
    env: 'HOOKSCOPE_LLM_MODEL',
    flag: null,
    default: '(none)',
    description: 'model name sent to that server (required with the URL)',
  },
  {
    key: 'remediation.llm.apiKey',
    env: 'HOOKSCOPE_LLM_API_KEY',
    flag: null,
    default: '(none)',
    description: 'bearer key for that server, if it needs one',
  },
  {
    key: 'tokenTtlMs',
    env: 'HOOKSCOPE_TOKEN_TTL',
    flag: '--ttl',
    default: '30d',
    description: 'lifetime of tokens from `hookscope token`',
  },
  {
    key: 'sessionTtlMs',
    env: 'HOOKSCOPE_SESSION_TTL',
    flag: null,
    default: '30d',
    description: 'lifetime of a UI session (the cookie a sign-in link gives)',
  },
  {
    key: 'maxEventStreamsPerAccount',
    env: 'HOOKSCOPE_MAX_EVENT_STREAMS',
    flag: null,
    default: '20',
    description: 'open /api/events streams per account (then 429)',
  },
  {
    key: 'forward.initialBackoffMs',
    env: null,
    flag: null,
    default: '1s',
    description: 'first retry delay of the forward queue (doubles per failure)',
  },
  {
    key: 'forward.maxBackoffMs',
    env: null,
    flag: null,
    default: '60s',
    description: 'longest retry delay of the forward queue',
  },
  {
    key: 'forward.timeoutMs',
    env: null,
    flag: null,
    default: '30s',
    description: 'time a forward target has to answer one attempt',
  },
  {
    key: 'tunnel.enabled',
    env: null,
    flag: '--tunnel / --no-tunnel',
    default: 'false',
    description: 'open a public URL through localtunnel (serve)',
  },
  {
    key: 'tunnel.host',
    env: 'HOOKSCOPE_TUNNEL_HOST',
    flag: '--tunnel-host',
    default: 'https://localtunnel.me',
    description: 'localtunnel server',
  },
  {
    key: 'tunnel.subdomain',
    env: null,
    flag: '--subdomain',
    default: '(remembered)',
    description: 'subdomain to ask for (4-63 lowercase letters and digits)',
  },
] as const;

const duration = z.union([positiveInt, z.string()]).transform((v, ctx) => {
  if (typeof v === 'number') return v;
  try {
    return parseDuration(v);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e) });
    return z.NEVER;
  }
});

/** `trustProxy` in config.json: the comma-separated string the flag takes, or its entries as an array. */
const trustProxyList = z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
  try {
    return parseTrustProxy(Array.isArray(v) ? v.join(',') : v);
  } catch {
    ctx.addIssue({ code: 'custom', message: `${TRUST_PROXY_RULE} (got ${JSON.stringify(v)}).` });
    return z.NEVER;
  }
});

/** What config.json may hold; `PATCH /api/settings` checks the whole file against it before writing. */
export const ConfigFileSchema = z.strictObject({
  apiHost: bindHost.optional(),
  apiPort: port.optional(),
  receiverHost: bindHost.optional(),
  publicUrl: publicUrl.optional(),
  owner: accountName.optional(),
  database: z.strictObject({ url: databaseUrl.optional() }).optional(),
  signInRateLimit: z.strictObject({ perMinute: signInPerMinute.optional() }).optional(),
  trustProxy: trustProxyList.optional(),
  receiverPort: port.optional(),
  maxBodyBytes: positiveInt.optional(),
  retention: z
    .strictObject({ maxLogsPerAccount: positiveInt.optional(), maxBodyBytesPerAccount: positiveInt.optional() })
    .optional(),
  receiver: z
    .strictObject({
      rateLimit: z.strictObject({ perSecond: rateLimitPerSecond.optional(), burst: positiveInt.optional() }).optional(),
      headersTimeoutMs: duration.optional(),
      requestTimeoutMs: duration.optional(),
      bodyIdleTimeoutMs: duration.optional(),
      maxInFlightBodyBytes: positiveInt.optional(),
    })
    .optional(),
  durability: z
    .strictObject({
      sync: z.enum(['interval', 'strict']).optional(),
      syncIntervalMs: positiveInt.optional(),
      checkpointIntervalMs: duration.optional(),
      checkpointBytes: positiveInt.optional(),
    })
    .optional(),
  secretGraceMs: duration.optional(),
  tokenTtlMs: duration.optional(),
  sessionTtlMs: duration.optional(),
  maxEventStreamsPerAccount: positiveInt.optional(),
  forward: z
    .strictObject({
      initialBackoffMs: duration.optional(),
      maxBackoffMs: duration.optional(),
      timeoutMs: duration.optional(),
    })
    .optional(),
  remediation: z
    .strictObject({
      llm: z
        .strictObject({
          url: llmUrl,
          model: llmModel,
          apiKey: llmApiKey.optional(),
          timeoutMs: positiveInt.optional(),
        })
        .nullable()
        .optional(),
    })
    .optional(),
  tunnel: z
    .strictObject({
      enabled: z.boolean().optional(),
      host: absoluteHttpUrl.optional(),
      subdomain: tunnelSubdomain.nullable().optional(),
      probeOrigin: absoluteHttpUrl.nullable().optional(),
      openTimeoutMs: duration.optional(),
      probeIntervalMs: z.union([z.literal(0), duration]).optional(),
      probeTimeoutMs: duration.optional(),
      probeFailures: positiveInt.optional(),
      backoffMinMs: duration.optional(),
      backoffMaxMs: duration.optional(),
    })
    .optional(),
});

type FileConfig = z.output<typeof ConfigFileSchema>;

export interface ConfigInput {
  dataDir: string;
  flags?: {
    apiHost?: string;
    apiPort?: number;
    receiverHost?: string;
    receiverPort?: number;
    publicUrl?: string;
    owner?: string;
    database?: string;
    trustProxy?: string;
    tunnel?: boolean;
    tunnelHost?: string;
    subdomain?: string;
  };
  env?: NodeJS.ProcessEnv;
  file?: unknown;
}

/** flags > environment > config.json > defaults; any bad value stops start-up naming the field and its source. */
export function resolveConfig(input: ConfigInput): EngineConfig {
  const file = parseFile(input.file);
  const env = input.env ?? {};
  const fromEnv = <T>(name: string, parse: (v: string) => T): T | undefined => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    try {
      return parse(v);
    } catch (e) {
      throw new ConfigError(`${name}: ${e instanceof Error ? e.message : String(e)}`, name);
    }
  };
  const envInt = (name: string, min: number, max: number) =>
    fromEnv(name, (v) => {
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
        throw new Error(`must be a whole number from ${min} to ${max} (got "${v}").`);
      return Number(v);
    });
  const envSync = fromEnv('HOOKSCOPE_SYNC', (v) => {
    if (v !== 'interval' && v !== 'strict') throw new Error(`must be interval or strict (got "${v}").`);
    return v;
  });

  const envTunnelHost = fromEnv('HOOKSCOPE_TUNNEL_HOST', (v) => {
    if (!isAbsoluteHttpUrl(v)) throw new Error(`must be an absolute http:// or https:// URL (got "${v}").`);
    return v;
  });
  const flags = input.flags ?? {};
  if (flags.tunnelHost !== undefined && !isAbsoluteHttpUrl(flags.tunnelHost)) {
    throw new ConfigError(
      `--tunnel-host must be an absolute http:// or https:// URL (got "${flags.tunnelHost}").`,
      '--tunnel-host',
    );
  }
  if (flags.subdomain !== undefined && !SUBDOMAIN_RE.test(flags.subdomain)) {
    throw new ConfigError(
      `--subdomain must be 4-63 lowercase letters and digits (got "${flags.subdomain}").`,
      '--subdomain',
    );
  }

  const envDuration = (name: string) => fromEnv(name, (v) => parseDuration(v, name));
  const d = DEFAULT_CONFIG;
  const ft = file.tunnel ?? {};
  const fr = file.receiver ?? {};
  const serving = resolveServing(flags, fromEnv, file);
  const tunnelEnabled = flags.tunnel ?? ft.enabled ?? d.tunnel.enabled;
  refuseTunnelWithPublicUrl(serving.publicBaseUrl, tunnelEnabled);
  refuseTunnelWithDatabase(serving.databaseUrl, tunnelEnabled);
  return {
    ...d,
    ...serving,
    signInRateLimit: {
      perMinute:
        envInt('HOOKSCOPE_SIGN_IN_RATE_LIMIT', 0, 1_000_000_000) ??
        file.signInRateLimit?.perMinute ??
        (isLoopbackHost(serving.apiHost) ? 0 : OFF_LOOPBACK_SIGN_IN_PER_MINUTE),
    },
    dataDir: input.dataDir,
    apiPort: input.flags?.apiPort ?? envInt('HOOKSCOPE_API_PORT', 0, 65535) ?? file.apiPort ?? d.apiPort,
    receiverPort:
      input.flags?.receiverPort ?? envInt('HOOKSCOPE_RECEIVER_PORT', 0, 65535) ?? file.receiverPort ?? d.receiverPort,
    maxBodyBytes: envInt('HOOKSCOPE_MAX_BODY_BYTES', 1, Number.MAX_SAFE_INTEGER) ?? file.maxBodyBytes ?? d.maxBodyBytes,
    retention: {
      maxLogsPerAccount:
        envInt('HOOKSCOPE_RETENTION_MAX_LOGS', 1, Number.MAX_SAFE_INTEGER) ??
        file.retention?.maxLogsPerAccount ??
        d.retention.maxLogsPerAccount,
      maxBodyBytesPerAccount:
        envInt('HOOKSCOPE_RETENTION_MAX_BODY_BYTES', 1, Number.MAX_SAFE_INTEGER) ??
        file.retention?.maxBodyBytesPerAccount ??
        d.retention.maxBodyBytesPerAccount,
    },
    receiver: {
      rateLimit: {
        perSecond:
          envInt('HOOKSCOPE_RATE_LIMIT_PER_SECOND', 0, 1_000_000_000) ??
          fr.rateLimit?.perSecond ??
          d.receiver.rateLimit.perSecond,
        burst:
          envInt('HOOKSCOPE_RATE_LIMIT_BURST', 1, 1_000_000_000) ?? fr.rateLimit?.burst ?? d.receiver.rateLimit.burst,
      },
      headersTimeoutMs:
        envDuration('HOOKSCOPE_RECEIVER_HEADERS_TIMEOUT') ?? fr.headersTimeoutMs ?? d.receiver.headersTimeoutMs,
      requestTimeoutMs:
        envDuration('HOOKSCOPE_RECEIVER_REQUEST_TIMEOUT') ?? fr.requestTimeoutMs ?? d.receiver.requestTimeoutMs,
      bodyIdleTimeoutMs:
        envDuration('HOOKSCOPE_RECEIVER_BODY_IDLE_TIMEOUT') ?? fr.bodyIdleTimeoutMs ?? d.receiver.bodyIdleTimeoutMs,
      maxInFlightBodyBytes:
        envInt('HOOKSCOPE_RECEIVER_MAX_INFLIGHT_BYTES', 1, Number.MAX_SAFE_INTEGER) ??
        fr.maxInFlightBodyBytes ??
        d.receiver.maxInFlightBodyBytes,
    },
    durability: {
      sync: envSync ?? file.durability?.sync ?? d.durability.sync,
      syncIntervalMs: file.durability?.syncIntervalMs ?? d.durability.syncIntervalMs,
      checkpointIntervalMs: file.durability?.checkpointIntervalMs ?? d.durability.checkpointIntervalMs,
      checkpointBytes: file.durability?.checkpointBytes ?? d.durability.checkpointBytes,
    },
    secretGraceMs: envDuration('HOOKSCOPE_SECRET_GRACE') ?? file.secretGraceMs ?? d.secretGraceMs,
    tokenTtlMs: envDuration('HOOKSCOPE_TOKEN_TTL') ?? file.tokenTtlMs ?? d.tokenTtlMs,
    sessionTtlMs: envDuration('HOOKSCOPE_SESSION_TTL') ?? file.sessionTtlMs ?? d.sessionTtlMs,
    maxEventStreamsPerAccount:
      envInt('HOOKSCOPE_MAX_EVENT_STREAMS', 1, Number.MAX_SAFE_INTEGER) ??
      file.maxEventStreamsPerAccount ??
      d.maxEventStreamsPerAccount,
    tunnel: {
      enabled: tunnelEnabled,
      host: flags.tunnelHost ?? envTunnelHost ?? ft.host ?? d.tunnel.host,
      subdomain: flags.subdomain ?? ft.subdomain ?? d.tunnel.subdomain,
      probeOrigin: ft.probeOrigin ?? d.tunnel.probeOrigin,
      openTimeoutMs: ft.openTimeoutMs ?? d.tunnel.openTimeoutMs,
      probeIntervalMs: ft.probeIntervalMs ?? d.tunnel.probeIntervalMs,
      probeTimeoutMs: ft.probeTimeoutMs ?? d.tunnel.probeTimeoutMs,
      probeFailures: ft.probeFailures ?? d.tunnel.probeFailures,
      backoffMinMs: ft.backoffMinMs ?? d.tunnel.backoffMinMs,
      backoffMaxMs: ft.backoffMaxMs ?? d.tunnel.backoffMaxMs,
    },
    forward: {
      initialBackoffMs: file.forward?.initialBackoffMs ?? d.forward.initialBackoffMs,
      maxBackoffMs: file.forward?.maxBackoffMs ?? d.forward.maxBackoffMs,
      timeoutMs: file.forward?.timeoutMs ?? d.forward.timeoutMs,
    },
    remediation: {
      llm: resolveLlm(env, file.remediation?.llm ?? null),
      ...(env.HOOKSCOPE_LLM_API_KEY ? { envApiKey: env.HOOKSCOPE_LLM_API_KEY } : {}),
    },
    sources: settingSources({ flags, env, file }),
  };
}

type EnvReader = <T>(name: string, parse: (v: string) => T) => T | undefined;

const HOST_RULE = 'must be an IP address (such as 0.0.0.0 or 127.0.0.1) or a host name';
const PUBLIC_URL_RULE =
  'must be an absolute http:// or https:// URL with no path, query or fragment, such as https://hooks.example.com';
const OWNER_RULE = 'must be 1 to 64 letters, digits or . _ @ -';

/** Where the listeners bind, the public URL, the owner and the database: flags > environment > config.json > defaults. */
function resolveServing(
  flags: NonNullable<ConfigInput['flags']>,
  fromEnv: EnvReader,
  file: FileConfig,
): Pick<EngineConfig, 'apiHost' | 'receiverHost' | 'publicBaseUrl' | 'owner' | 'databaseUrl' | 'trustProxy'> {
  // The flag, else the variable, through the same check: `normalize` answers null for a value breaking `rule`.
  const read = (
    flag: string,
    value: string | undefined,
    env: string,
    normalize: (v: string) => string | null,
    rule: string,
  ) => {
    if (value !== undefined) {
      const v = normalize(value);
      if (v === null) throw new ConfigError(`${flag} ${rule} (got "${value}").`, flag);
      return v;
    }
    return fromEnv(env, (raw) => {
      const v = normalize(raw);
      if (v === null) throw new Error(`${rule} (got "${raw}").`);
      return v;
    });
  };
  const host = (v: string) => (isBindHost(v) ? v : null);
  const owner = (v: string) => (ACCOUNT_NAME_RE.test(v) ? v : null);
  const d = DEFAULT_CONFIG;
  return {
    apiHost: read('--api-host', flags.apiHost, 'HOOKSCOPE_API_HOST', host, HOST_RULE) ?? file.apiHost ?? d.apiHost,
    receiverHost:
      read('--receiver-host', flags.receiverHost, 'HOOKSCOPE_RECEIVER_HOST', host, HOST_RULE) ??
      file.receiverHost ??
      d.receiverHost,
    publicBaseUrl:
      read('--public-url', flags.publicUrl, 'HOOKSCOPE_PUBLIC_URL', publicOrigin, PUBLIC_URL_RULE) ??
      file.publicUrl ??
      d.publicBaseUrl,
    owner: read('--owner', flags.owner, 'HOOKSCOPE_OWNER', owner, OWNER_RULE) ?? file.owner ?? d.owner,
    databaseUrl: resolveDatabaseUrl(flags.database, fromEnv) ?? file.database?.url ?? d.databaseUrl,
    trustProxy: resolveTrustProxy(flags.trustProxy, fromEnv) ?? file.trustProxy ?? d.trustProxy,
  };
}

/**
 * `--database`, else HOOKSCOPE_DATABASE_URL. A bad value is not echoed, unlike
 * the other settings': the URL may carry the database password.
 */
function resolveDatabaseUrl(flag: string | undefined, fromEnv: EnvReader): string | undefined {
  if (flag !== undefined) {
    if (!isDatabaseUrl(flag)) throw new ConfigError(`--database ${DATABASE_URL_RULE}.`, '--database');
    return flag;
  }
  return fromEnv('HOOKSCOPE_DATABASE_URL', (v) => {
    if (!isDatabaseUrl(v)) throw new Error(`${DATABASE_URL_RULE}.`);
    return v;
  });
}

/** `--trust-proxy`, else HOOKSCOPE_TRUST_PROXY. */
function resolveTrustProxy(flag: string | undefined, fromEnv: EnvReader): string[] | undefined {
  if (flag !== undefined) {
    try {
      return parseTrustProxy(flag);
    } catch (e) {
      throw new ConfigError(`--trust-proxy ${e instanceof Error ? e.message : String(e)}`, '--trust-proxy');
    }
  }
  return fromEnv('HOOKSCOPE_TRUST_PROXY', parseTrustProxy);
}

/** HOOKSCOPE_LLM_* override config.json's remediation.llm field by field; a URL needs a model. */
function resolveLlm(env: NodeJS.ProcessEnv, file: LlmConfig | null): LlmConfig | null {
  const url = env.HOOKSCOPE_LLM_URL || file?.url;
  if (!url) return null;
  const fromEnv = Boolean(env.HOOKSCOPE_LLM_URL);
  if (fromEnv && !isAbsoluteHttpUrl(url)) {
    throw new ConfigError(
      `HOOKSCOPE_LLM_URL: must be an absolute http:// or https:// URL (got "${url}").`,
      'HOOKSCOPE_LLM_URL',
    );
  }
  const model = env.HOOKSCOPE_LLM_MODEL || file?.model;
  if (!model) {
    throw new ConfigError(
      'HOOKSCOPE_LLM_MODEL: a model name is required when an LLM URL is set.',
      'HOOKSCOPE_LLM_MODEL',
    );
  }
  const apiKey = env.HOOKSCOPE_LLM_API_KEY || file?.apiKey;
  return {
    url,
    model,
    ...(apiKey ? { apiKey } : {}),
    ...(file?.timeoutMs !== undefined ? { timeoutMs: file.timeoutMs } : {}),
  };
}

function parseFile(file: unknown): FileConfig {
  if (file === undefined) return {};
  const r = ConfigFileSchema.safeParse(file);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const where = issue.path.map(String).join('.') || '(top level)';
  const keys = issue.code === 'unrecognized_keys' ? ` ${issue.keys.join(', ')}` : '';
  throw new ConfigError(`config.json: ${where}${keys}: ${issue.message}`, 'config.json', r.error.issues);
}

/** `<dataDir>/config.json`, parsed; undefined when there is none. */
export async function loadConfigFile(dataDir: string): Promise<unknown> {
  const path = join(dataDir, 'config.json');
  const text = await readTextIfExists(path);
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ConfigError(`${path} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, 'config.json');
  }
}
