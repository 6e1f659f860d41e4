import type { EngineConfig, LlmConfig } from '../config/config.ts';
import type { SettingName, SettingSource, SettingSources } from '../config/setting-origins.ts';

/** The settings `PATCH /api/settings` changes while the engine runs. */
export interface EditableSettings {
  tunnel: { host: string; subdomain: string | null };
  retention: { maxLogsPerAccount: number; maxBodyBytesPerAccount: number };
  rateLimit: { perSecond: number; burst: number };
  llm: LlmConfig | null;
}

/**
 * The running values of the editable settings, one per engine (no module
 * state). The features that use them are given a function that reads the
 * current value here at each use (the logs' retention at each insert, the
 * receiver's rate limit at each delivery, remediation's LLM at each analysis),
 * so a change applies to the next delivery or analysis without a restart. A
 * change replaces the values object whole: a reader never sees half of one.
 */
export class LiveSettings {
  private current: EditableSettings;
  private readonly sources: SettingSources;
  /** HOOKSCOPE_LLM_API_KEY: it also goes with an LLM URL set later in Settings. */
  readonly envApiKey: string | undefined;

  constructor(config: EngineConfig) {
    this.current = {
      tunnel: { host: config.tunnel.host, subdomain: config.tunnel.subdomain },
      retention: { ...config.retention },
      rateLimit: { ...config.receiver.rateLimit },
      llm: config.remediation.llm,
    };
    this.sources = { ...config.sources };
    this.envApiKey = config.remediation.envApiKey;
  }

  get values(): EditableSettings {
    return this.current;
  }

  /** Where a setting's running value came from; null = its default. */
  sourceOf(name: SettingName): SettingSource | null {
    return this.sources[name] ?? null;
  }

  /** The new running values, after `written` were saved to config.json (they now come from there). */
  replace(values: EditableSettings, written: readonly { name: SettingName; fileKey: string }[]): void {
    this.current = values;
    for (const w of written) {
      // A flag or variable still wins over the file: its source stays.
      const from = this.sources[w.name]?.from;
      if (from !== 'flag' && from !== 'env') this.sources[w.name] = { from: 'file', name: w.fileKey };
    }
  }
}
