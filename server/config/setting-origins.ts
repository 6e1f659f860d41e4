/**
 * Where each setting the Settings screen shows can be set: its config.json key,
 * its environment variable and its `serve` flag. resolveConfig records which of
 * them gave the running value (flags > environment > config.json > defaults),
 * so the screen can say "set by HOOKSCOPE_RATE_LIMIT_PER_SECOND" and the API
 * can refuse a change that would not take effect.
 */

/** The `serve` flags that carry a setting (ConfigInput['flags']'s keys). */
export type FlagKey = 'apiPort' | 'receiverPort' | 'tunnelHost' | 'subdomain';

export interface SettingOrigin {
  /** The key path in config.json. */
  file: readonly string[];
  env: string | null;
  flag: { name: string; key: FlagKey } | null;
}

export const SETTING_ORIGINS = {
  'tunnel.host': {
    file: ['tunnel', 'host'],
    env: 'HOOKSCOPE_TUNNEL_HOST',
    flag: { name: '--tunnel-host', key: 'tunnelHost' },
  },
  'tunnel.subdomain': { file: ['tunnel', 'subdomain'], env: null, flag: { name: '--subdomain', key: 'subdomain' } },
  'retention.maxLogsPerAccount': {
    file: ['retention', 'maxLogsPerAccount'],
    env: 'HOOKSCOPE_RETENTION_MAX_LOGS',
    flag: null,
  },
  'retention.maxBodyBytesPerAccount': {
    file: ['retention', 'maxBodyBytesPerAccount'],
    env: 'HOOKSCOPE_RETENTION_MAX_BODY_BYTES',
    flag: null,
  },
  'rateLimit.perSecond': {
    file: ['receiver', 'rateLimit', 'perSecond'],
    env: 'HOOKSCOPE_RATE_LIMIT_PER_SECOND',
    flag: null,
  },
  'rateLimit.burst': { file: ['receiver', 'rateLimit', 'burst'], env: 'HOOKSCOPE_RATE_LIMIT_BURST', flag: null },
  'llm.url': { file: ['remediation', 'llm', 'url'], env: 'HOOKSCOPE_LLM_URL', flag: null },
  'llm.model': { file: ['remediation', 'llm', 'model'], env: 'HOOKSCOPE_LLM_MODEL', flag: null },
  'llm.apiKey': { file: ['remediation', 'llm', 'apiKey'], env: 'HOOKSCOPE_LLM_API_KEY', flag: null },
  'ports.api': { file: ['apiPort'], env: 'HOOKSCOPE_API_PORT', flag: { name: '--api-port', key: 'apiPort' } },
  'ports.receiver': {
    file: ['receiverPort'],
    env: 'HOOKSCOPE_RECEIVER_PORT',
    flag: { name: '--receiver-port', key: 'receiverPort' },
  },
} as const satisfies Record<string, SettingOrigin>;

export type SettingName = keyof typeof SETTING_ORIGINS;
export const SETTING_NAMES = Object.keys(SETTING_ORIGINS) as SettingName[];

/** Where a running value came from; a setting with none has its default. */
export interface SettingSource {
  from: 'flag' | 'env' | 'file';
  /** The flag, the variable, or the config.json key path (dotted). */
  name: string;
}

export type SettingSources = Partial<Record<SettingName, SettingSource>>;

/** The value at a key path of a parsed JSON object, or undefined. */
export function valueAt(file: unknown, path: readonly string[]): unknown {
  let v: unknown = file;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** Which layer gave each setting its value, by the same precedence resolveConfig applies. */
export function settingSources(input: {
  flags: Partial<Record<FlagKey, unknown>>;
  env: NodeJS.ProcessEnv;
  file: unknown;
}): SettingSources {
  const out: SettingSources = {};
  for (const name of SETTING_NAMES) {
    const o: SettingOrigin = SETTING_ORIGINS[name];
    if (o.flag && input.flags[o.flag.key] !== undefined) out[name] = { from: 'flag', name: o.flag.name };
    else if (o.env && input.env[o.env]) out[name] = { from: 'env', name: o.env };
    else if (valueAt(input.file, o.file) !== undefined) out[name] = { from: 'file', name: o.file.join('.') };
  }
  return out;
}
