import { route, type RouteSpec } from '../http/route.ts';
import { SettingsSchema, UpdateSettingsBody } from './settings-schemas.ts';
import type { SettingsService } from './settings-service.ts';

export function settingsRoutes(settings: SettingsService): RouteSpec[] {
  const tag = 'Settings';
  return [
    route({
      method: 'get',
      path: '/api/settings',
      summary: 'The engine-wide settings (tunnel, retention, rate limit, LLM, ports) and where each value comes from',
      tag,
      acts: false,
      responses: { 200: { description: 'The running settings', data: SettingsSchema } },
      handler: async ({ account }) => ({ data: settings.view(account) }),
    }),
    route({
      method: 'patch',
      path: '/api/settings',
      summary:
        'Change settings (owner account only): saved to config.json (with a database: to the database, for every instance) and applied without a restart',
      tag,
      body: UpdateSettingsBody,
      responses: { 200: { description: 'The settings after the change', data: SettingsSchema } },
      errors: {
        403: 'FORBIDDEN: only the owner account of this install may change settings (or the Host header is not allowed)',
        409: 'SETTING_OVERRIDDEN: a flag or environment variable sets this value; CONFIG_FILE_INVALID / CONFIG_FILE_UNREADABLE: config.json cannot be read or holds an error, and was left as it is; TUNNEL_UNAVAILABLE: a tunnel setting on a team server with a database (details.field names it)',
      },
      handler: async ({ body, account }) => ({ data: await settings.update(account, body) }),
    }),
  ];
}
