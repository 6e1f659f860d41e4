import type { Clock } from '../support/clock.ts';
import { ConfigFile } from './config-file.ts';
import type { LiveSettings } from './live-settings.ts';
import { fileDocument, sharedDocument } from './settings-document.ts';
import { SettingsFollower } from './settings-follower.ts';
import { settingsRoutes } from './settings-routes.ts';
import { SettingsService, type SettingsServiceDeps } from './settings-service.ts';
import type { SharedSettingsRepository } from './shared-settings-repository.ts';

export interface SettingsFeatureDeps extends Omit<SettingsServiceDeps, 'file' | 'database'> {
  settings: LiveSettings;
  dataDir: string;
  /** A team server's database (PostgreSQL): saves go there and every instance follows them. Null: config.json. */
  shared: SharedSettingsRepository | null;
  /** How often an instance asks the database for another instance's save. */
  pollMs: number;
  clock: Clock;
  onError: (err: unknown) => void;
}

/**
 * The Settings screen's engine side: `GET`/`PATCH /api/settings`. The running
 * values live in LiveSettings, which the engine made first and whose readers
 * (retention, the rate limit, the LLM) it handed to the features that use them.
 */
export function settingsFeature(deps: SettingsFeatureDeps) {
  const { shared } = deps;
  const service = new SettingsService({
    ...deps,
    file: shared ? sharedDocument(shared, deps.clock) : fileDocument(new ConfigFile(deps.dataDir)),
    database: shared !== null,
  });
  const follower = shared
    ? new SettingsFollower({
        repo: shared,
        adopt: (read) => service.adopt(read),
        pollMs: deps.pollMs,
        onError: deps.onError,
      })
    : null;
  return {
    name: 'settings',
    service,
    routes: settingsRoutes(service),
    online: async (at: { apiUrl: string; receiverUrl: string }): Promise<void> => service.listening(at),
    ...(follower ? { start: () => follower.start(), stop: () => follower.stop() } : {}),
  };
}
