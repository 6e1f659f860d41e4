import { z } from 'zod';
import {
  absoluteHttpUrl,
  llmApiKey,
  llmModel,
  llmUrl,
  positiveInt,
  rateLimitPerSecond,
  tunnelSubdomain,
} from '../config/config-rules.ts';
import { SETTING_NAMES } from '../config/setting-origins.ts';

const SourceSchema = z
  .strictObject({
    from: z.enum(['flag', 'env', 'file', 'default']),
    name: z
      .string()
      .nullable()
      .meta({ description: 'The flag, the environment variable or the config.json key; null for a default.' }),
  })
  .meta({ id: 'SettingSource' });

const PortSchema = z.strictObject({
  port: z.number().int().meta({ description: 'The port the listener is bound to now.' }),
  flag: z.string().meta({ description: 'The `hookscope serve` flag that sets it.' }),
  env: z.string().meta({ description: 'The environment variable that sets it.' }),
  configKey: z.string().meta({ description: 'The config.json key that sets it.' }),
});

/** What `GET /api/settings` and `PATCH /api/settings` answer. */
export const SettingsSchema = z
  .strictObject({
    tunnel: z.strictObject({
      host: z.string().meta({ description: 'The localtunnel server.' }),
      subdomain: z
        .string()
        .nullable()
        .meta({ description: 'The subdomain asked for; null = the one remembered for the host.' }),
    }),
    retention: z.strictObject({
      maxLogsPerAccount: z.number().int(),
      maxBodyBytesPerAccount: z.number().int(),
    }),
    rateLimit: z.strictObject({
      perSecond: z.number().int().meta({ description: 'Deliveries per second per endpoint; 0 = no limit.' }),
      burst: z.number().int(),
    }),
    llm: z
      .strictObject({
        url: z.string(),
        model: z.string(),
        apiKeySet: z.boolean().meta({ description: 'Whether a key is configured (the key itself is never sent).' }),
      })
      .nullable()
      .meta({ description: 'The OpenAI-compatible server that adds prose to analyses; null = rules only.' }),
    ports: z.strictObject({ api: PortSchema, receiver: PortSchema }).meta({
      description: 'Read-only here: a port changes with its flag, variable or config.json key and a restart.',
    }),
    sources: z
      .strictObject(
        Object.fromEntries(SETTING_NAMES.map((n) => [n, SourceSchema])) as Record<
          (typeof SETTING_NAMES)[number],
          typeof SourceSchema
        >,
      )
      .meta({
        description:
          'Where each value comes from. A value set by a flag or an environment variable wins over config.json: ' +
          'changing it here is refused (409 SETTING_OVERRIDDEN).',
      }),
    canEdit: z.boolean().meta({ description: 'Whether this account may change them (the install owner only).' }),
    configFile: z.string().meta({ description: 'The config.json a change is saved to.' }),
  })
  .meta({ id: 'Settings' });

export type SettingsView = z.infer<typeof SettingsSchema>;

const atLeastOne = (what: string) => ({ error: `Send at least one field of ${what}.` });

export const UpdateSettingsBody = z
  .strictObject({
    tunnel: z
      .strictObject({
        host: absoluteHttpUrl.optional().meta({ description: 'The localtunnel server, an absolute http(s) URL.' }),
        subdomain: tunnelSubdomain
          .nullable()
          .optional()
          .meta({ description: '4-63 lowercase letters and digits; null = the one remembered for the host.' }),
      })
      .refine((t) => t.host !== undefined || t.subdomain !== undefined, atLeastOne('tunnel'))
      .optional(),
    retention: z
      .strictObject({ maxLogsPerAccount: positiveInt.optional(), maxBodyBytesPerAccount: positiveInt.optional() })
      .refine((r) => r.maxLogsPerAccount !== undefined || r.maxBodyBytesPerAccount !== undefined, {
        ...atLeastOne('retention'),
      })
      .optional(),
    rateLimit: z
      .strictObject({ perSecond: rateLimitPerSecond.optional(), burst: positiveInt.optional() })
      .refine((r) => r.perSecond !== undefined || r.burst !== undefined, atLeastOne('rateLimit'))
      .optional(),
    llm: z
      .strictObject({
        url: llmUrl,
        model: llmModel,
        apiKey: llmApiKey
          .nullable()
          .optional()
          .meta({ description: 'Write-only: a new key, null to remove it, omitted to keep it.' }),
      })
      .nullable()
      .optional()
      .meta({ description: 'The URL and model go together; null turns the LLM off.' }),
  })
  .refine(
    (b) => b.tunnel !== undefined || b.retention !== undefined || b.rateLimit !== undefined || b.llm !== undefined,
    { error: 'Send at least one of tunnel, retention, rateLimit and llm.' },
  );

export type SettingsUpdate = z.output<typeof UpdateSettingsBody>;

/** `settings.changed`: which settings changed (sent to every account); clients read `GET /api/settings` again. */
export const SettingsChangedSchema = z
  .strictObject({ changed: z.array(z.enum(SETTING_NAMES)) })
  .meta({ id: 'SettingsChanged' });

export type SettingsChanged = z.infer<typeof SettingsChangedSchema>;
