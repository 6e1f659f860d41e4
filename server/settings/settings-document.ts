import type { Clock } from '../support/clock.ts';
import type { ConfigFile, JsonObject } from './config-file.ts';
import type { SharedSettingsRepository } from './shared-settings-repository.ts';

/** Where the Settings screen saves: config.json, or the database a team server's instances share. */
export interface SettingsDocument {
  /** What the screen names as where a change is saved. */
  readonly path: string;
  /** Saves `change(current)`; when `change` throws, nothing is saved. Answers what was saved. */
  change(change: (current: JsonObject) => JsonObject): Promise<JsonObject>;
}

/** config.json in the data directory (the desktop app, one instance). */
export function fileDocument(file: ConfigFile): SettingsDocument {
  return {
    path: file.path,
    change: async (change) => {
      const next = change(await file.read());
      await file.write(next);
      return next;
    },
  };
}

/** The database every instance shares (PostgreSQL). */
export function sharedDocument(repo: SharedSettingsRepository, clock: Clock): SettingsDocument {
  return {
    path: repo.description,
    change: async (change) => (await repo.change(change, clock.now())).document,
  };
}
