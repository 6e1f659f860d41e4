import { ConfigFile } from './config-file.ts';
import type { LiveSettings } from './live-settings.ts';
import { settingsRoutes } from './settings-routes.ts';
import { SettingsService, type SettingsServiceDeps } from './settings-service.ts';

export interface SettingsFeatureDeps extends Omit<SettingsServiceDeps, 'file'> {
  settings: LiveSettings;
  dataDir: string;
}

/**
 * The Settings screen's engine side: `GET`/`PATCH /api/settings`. The running
 * values live in LiveSettings, which the engine made first and whose readers
 * (retention, the rate limit, the LLM) it handed to the features that use them.
 */
export function settingsFeature(deps: SettingsFeatureDeps) {
  const service = new SettingsService({ ...deps, file: new ConfigFile(deps.dataDir) });
  return {
    name: 'settings',
    service,
    routes: settingsRoutes(service),
    online: async (at: { apiUrl: string; receiverUrl: string }): Promise<void> => service.listening(at),
  };
}
