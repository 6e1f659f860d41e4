import type { Settings } from './settings-fields.ts';

const DEFAULT: Settings['sources'][keyof Settings['sources']] = { from: 'default', name: null };

/** A Settings object as a fresh engine answers it, for tests: `over` replaces whole groups. */
export function sampleSettings(over: Partial<Settings> = {}): Settings {
  const port = (port: number, flag: string, env: string, configKey: string) => ({ port, flag, env, configKey });
  return {
    tunnel: { host: 'https://localtunnel.me', subdomain: null },
    retention: { maxLogsPerAccount: 10000, maxBodyBytesPerAccount: 536870912 },
    rateLimit: { perSecond: 1000, burst: 2000 },
    llm: null,
    ports: {
      api: port(4680, '--api-port', 'HOOKSCOPE_API_PORT', 'apiPort'),
      receiver: port(4681, '--receiver-port', 'HOOKSCOPE_RECEIVER_PORT', 'receiverPort'),
    },
    sources: {
      'tunnel.host': DEFAULT,
      'tunnel.subdomain': DEFAULT,
      'retention.maxLogsPerAccount': DEFAULT,
      'retention.maxBodyBytesPerAccount': DEFAULT,
      'rateLimit.perSecond': DEFAULT,
      'rateLimit.burst': DEFAULT,
      'llm.url': DEFAULT,
      'llm.model': DEFAULT,
      'llm.apiKey': DEFAULT,
      'ports.api': DEFAULT,
      'ports.receiver': DEFAULT,
    },
    canEdit: true,
    configFile: '/data/config.json',
    ...over,
  };
}
