import type { JsonObject } from './config-file.ts';

/** What Settings saved in the database, and how many saves it has seen. */
export interface SavedSettings {
  /** Shaped like config.json, holding only the keys Settings saved. */
  document: JsonObject;
  /** 0 before the first save; one more at each. */
  version: number;
}

/**
 * Where a team server's instances keep what `PATCH /api/settings` saves, so
 * that a change on one applies on all (server/storage/postgres/settings-postgres.ts).
 * The embedded backend has none: config.json in the data directory is the place.
 */
export interface SharedSettingsRepository {
  /** What the Settings screen names as where a change is saved. */
  readonly description: string;
  read(): Promise<SavedSettings>;
  /**
   * Replaces the document with `change(current)` and counts a save, in one
   * write that concurrent saves (on any instance) wait for; when `change`
   * throws, nothing is saved.
   */
  change(change: (current: JsonObject) => JsonObject, now: number): Promise<SavedSettings>;
}
