import type { JsonObject } from '../../settings/config-file.ts';
import type { SavedSettings, SharedSettingsRepository } from '../../settings/shared-settings-repository.ts';
import type { PostgresDatabase } from './postgres-database.ts';

/** Settings saved on a team server, in PostgreSQL (table: settings-migrations.ts). */
export class PostgresSettingsRepository implements SharedSettingsRepository {
  constructor(
    private readonly db: PostgresDatabase,
    readonly description: string,
  ) {}

  async read(): Promise<SavedSettings> {
    const [row] = await this.db.query<SavedSettings>('SELECT document, version FROM settings WHERE id = 1');
    return row ?? { document: {}, version: 0 };
  }

  async change(change: (current: JsonObject) => JsonObject, now: number): Promise<SavedSettings> {
    return this.db.transaction(async (tx) => {
      // The row exists before it is locked: two first saves at once then queue on it like any others.
      await tx.query(
        `INSERT INTO settings (id, document, version, updated_at) VALUES (1, '{}', 0, $1) ON CONFLICT (id) DO NOTHING`,
        [now],
      );
      const [row] = await tx.query<SavedSettings>('SELECT document, version FROM settings WHERE id = 1 FOR UPDATE');
      const document = change(row!.document);
      const [saved] = await tx.query<SavedSettings>(
        `UPDATE settings SET document = $1, version = version + 1, updated_at = $2 WHERE id = 1
           RETURNING document, version`,
        [JSON.stringify(document), now],
      );
      return saved!;
    });
  }
}
